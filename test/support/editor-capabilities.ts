/**
 * The initialize capabilities of the editors the README's set-ups name, as each sends them, for
 * tests that hold the server to what a client declared (LSP 3.17: a server sends no property and
 * no content format the client did not say it takes).
 */

/** Emacs 28's eglot 1.9 (Debian's elpa-eglot) without yasnippet or markdown-mode, as `eglot-client-capabilities` builds them. */
export const EGLOT_1_9 = {
  workspace: {
    applyEdit: true,
    executeCommand: { dynamicRegistration: false },
    workspaceEdit: { documentChanges: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    symbol: { dynamicRegistration: false },
    configuration: true,
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, willSave: true, willSaveWaitUntil: true, didSave: true },
    completion: { dynamicRegistration: false, completionItem: { snippetSupport: false, deprecatedSupport: true, tagSupport: { valueSet: [1] } }, contextSupport: true },
    hover: { dynamicRegistration: false, contentFormat: ['plaintext'] },
    references: { dynamicRegistration: false },
    definition: { dynamicRegistration: false, linkSupport: true },
    documentSymbol: { dynamicRegistration: false, hierarchicalDocumentSymbolSupport: true },
    codeAction: { dynamicRegistration: false, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] } }, isPreferredSupport: true },
    formatting: { dynamicRegistration: false },
    rename: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, codeDescriptionSupport: false, tagSupport: { valueSet: [1, 2] } },
  },
  experimental: {},
};

/** Neovim 0.7's `vim.lsp.protocol.make_client_capabilities()`, the parts the server reads. */
export const NEOVIM_0_7 = {
  workspace: { applyEdit: true, workspaceEdit: { resourceOperations: ['rename', 'create', 'delete'] }, workspaceFolders: true, symbol: { dynamicRegistration: false } },
  textDocument: {
    synchronization: { dynamicRegistration: false, willSave: false, willSaveWaitUntil: false, didSave: true },
    codeAction: { dynamicRegistration: false, codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source'] } }, dataSupport: true, resolveSupport: { properties: ['edit'] } },
    completion: { dynamicRegistration: false, completionItem: { snippetSupport: false, commitCharactersSupport: false, preselectSupport: false, deprecatedSupport: false, documentationFormat: ['markdown', 'plaintext'] }, contextSupport: false },
    hover: { dynamicRegistration: false, contentFormat: ['markdown', 'plaintext'] },
    definition: { linkSupport: true },
    references: { dynamicRegistration: false },
    documentSymbol: { dynamicRegistration: false, hierarchicalDocumentSymbolSupport: true },
    rename: { dynamicRegistration: false, prepareSupport: true },
    publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] } },
  },
  window: { workDoneProgress: true, showDocument: { support: false } },
};
