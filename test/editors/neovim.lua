-- Headless Neovim (0.7+) against the BabelQueue language server, through Neovim's own LSP UI:
-- starts the server with vim.lsp.start_client as a user's init.lua would, opens fixtures of the
-- workspace and, with the main loop running between steps (keys typed in insert mode are handled
-- only there), takes
--   * the diagnostics Neovim holds (vim.diagnostic.get): the open fixture's, and every fixture's
--     of the workspace, unopened ones included, with the files vim.diagnostic.setqflist() lists,
--   * completion with vim.lsp.omnifunc: <C-x><C-o> typed in insert mode inside the URN, the items of
--     the popup it fills (complete_info),
--   * hover with vim.lsp.buf.hover(): the text of the floating window it opens,
--   * the quick fix with vim.lsp.buf.code_action(): the titles it offers through vim.ui.select (the
--     hook every picker plugin replaces; here it picks "Remove forbidden key"), the edit applied to
--     the buffer, and the diagnostics the server sends for the edited buffer,
--   * after a save, the diagnostics of a fixture and of a registry.json written outside Neovim
--     (which sends no file events).
-- Writes what Neovim saw to $BABELQ_OUT as JSON, then quits; any step that times out is named.
--   BABELQ_SERVER=<…/babelq-language-server> BABELQ_WORKSPACE=<dir> BABELQ_OUT=<file> \
--     nvim --headless --clean -c 'luafile test/editors/neovim.lua'
local server = os.getenv('BABELQ_SERVER')
local root = os.getenv('BABELQ_WORKSPACE')
local out = os.getenv('BABELQ_OUT')
local wait_ms = tonumber(os.getenv('BABELQ_WAIT_MS') or '15000')
local version = vim.version()
local seen = { editor = string.format('neovim %d.%d.%d', version.major, version.minor, version.patch) }

local function finish()
  local file = assert(io.open(out, 'w'))
  file:write(vim.fn.json_encode(seen))
  file:close()
  vim.cmd('qall!')
end

local main
-- Runs the steps on until they wait or end; a step's error ends the run and is reported.
local function resume()
  local ok, failure = coroutine.resume(main)
  if not ok then seen.error = tostring(failure) end
  if not ok or coroutine.status(main) == 'dead' then finish() end
end

-- Waits until predicate() holds, giving the main loop back every 30 ms (typed keys, LSP answers,
-- floats); errors naming `what` after wait_ms.
local function wait_for(what, predicate)
  local deadline = vim.loop.now() + wait_ms
  while not predicate() do
    if vim.loop.now() > deadline then error('no ' .. what .. ' within ' .. wait_ms .. ' ms') end
    vim.defer_fn(resume, 30)
    coroutine.yield()
  end
end

local function type_keys(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'n', false)
end

local function open(path, client_id)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. path))
  local buffer = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buffer, client_id)
  return buffer
end

local function diagnostics_of(buffer)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buffer)) do
    table.insert(list, { code = d.code, line = d.lnum, character = d.col, endLine = d.end_lnum, endCharacter = d.end_col, severity = d.severity })
  end
  return list
end

local function has_finding(buffer, code, line, character)
  for _, d in ipairs(vim.diagnostic.get(buffer)) do
    if d.code == code and d.lnum == line and d.col == character then return true end
  end
  return false
end

-- How many diagnostics notifications Neovim handled: a fixed buffer's diagnostics are those of one
-- that came after the fix.
local published = 0
local handle_published = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(...)
  published = published + 1
  return handle_published(...)
end

main = coroutine.create(function()
  -- Buffers edited by a quick fix stay loaded, unsaved, while the next fixture is opened.
  vim.o.hidden = true
  local client_id = vim.lsp.start_client({ name = 'babelq', cmd = { server, '--stdio' }, root_dir = root })
  if not client_id then error('vim.lsp.start_client did not start ' .. server) end

  -- Diagnostics, pushed by the server into Neovim's store.
  local bad = open('bad/contract.babel.json', client_id)
  wait_for('diagnostics for bad/contract.babel.json', function() return #vim.diagnostic.get(bad) > 0 end)
  seen.diagnostics = diagnostics_of(bad)

  -- The fixtures nobody opened: pushed into the store under a buffer of their own (not loaded),
  -- so vim.diagnostic.get() and vim.diagnostic.setqflist() list them with the open ones. Taken once
  -- the unopened bad/data.babel.json has its diagnostics and the store has not changed for 500 ms.
  local data = root .. '/bad/data.babel.json'
  local count, steady_since = -1, vim.loop.now()
  wait_for('diagnostics for the unopened bad/data.babel.json', function()
    local now = #vim.diagnostic.get()
    if now ~= count then count, steady_since = now, vim.loop.now() end
    return vim.fn.bufnr(data) ~= -1 and #vim.diagnostic.get(vim.fn.bufnr(data)) > 0 and vim.loop.now() - steady_since > 500
  end)
  seen.workspace = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    table.insert(seen.workspace, { file = vim.api.nvim_buf_get_name(d.bufnr):sub(#root + 2), code = d.code, line = d.lnum, character = d.col })
  end
  seen.unopenedBuffer = { loaded = vim.api.nvim_buf_is_loaded(vim.fn.bufnr(data)), listed = vim.fn.buflisted(vim.fn.bufnr(data)) == 1 }
  vim.diagnostic.setqflist({ open = false })
  seen.quickfixFiles = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    local name = vim.api.nvim_buf_get_name(item.bufnr):sub(#root + 2)
    if seen.quickfixFiles[#seen.quickfixFiles] ~= name then table.insert(seen.quickfixFiles, name) end
  end

  -- The quick fix of the forbidden "timestamp" (line 5): code_action on its line, the pick
  -- made through vim.ui.select, the edit applied to the buffer.
  local forbidden
  for _, d in ipairs(vim.diagnostic.get(bad)) do
    if d.code == 'forbidden-key' and not forbidden then forbidden = d end
  end
  if not forbidden then error('no forbidden-key diagnostic to fix') end
  vim.api.nvim_win_set_cursor(0, { forbidden.lnum + 1, forbidden.col })
  local before = vim.api.nvim_buf_get_lines(bad, 0, -1, false)
  local picked = false
  vim.ui.select = function(items, opts, on_choice)
    seen.codeActions = {}
    local choice
    for _, item in ipairs(items) do
      local title = opts.format_item and opts.format_item(item) or item[2].title
      table.insert(seen.codeActions, title)
      if not choice and title:match('^Remove forbidden key "') then choice = item end
    end
    picked = true
    on_choice(choice)
  end
  vim.lsp.buf.code_action()
  wait_for('code actions offered through vim.ui.select', function() return picked end)
  local published_at_fix = published
  wait_for('the quick fix applied to the buffer', function() return #vim.api.nvim_buf_get_lines(bad, 0, -1, false) < #before end)
  seen.fixedText = table.concat(vim.api.nvim_buf_get_lines(bad, 0, -1, false), '\n')
  wait_for('the diagnostics of the fixed buffer', function()
    return published > published_at_fix and #vim.diagnostic.get(bad) > 0 and not has_finding(bad, forbidden.code, forbidden.lnum, forbidden.col)
  end)
  seen.diagnosticsAfterFix = diagnostics_of(bad)

  -- Completion: <C-x><C-o> typed in insert mode inside the URN of "job" (line 2), with
  -- vim.lsp.omnifunc; the popup's items.
  local good = open('orders/order-created.babel.json', client_id)
  vim.bo[good].omnifunc = 'v:lua.vim.lsp.omnifunc'
  vim.api.nvim_win_set_cursor(0, { 2, 14 })
  type_keys('i<C-x><C-o>')
  wait_for('completion items from vim.lsp.omnifunc', function() return #vim.fn.complete_info({ 'items' }).items > 0 end)
  seen.completionMode = vim.fn.mode()
  seen.completion = {}
  for _, item in ipairs(vim.fn.complete_info({ 'items' }).items) do table.insert(seen.completion, item.abbr) end
  type_keys('<C-e><Esc>')
  wait_for('normal mode after the completion', function() return vim.fn.mode() == 'n' end)

  -- Hover: vim.lsp.buf.hover() on the URN opens a floating window; its text.
  vim.api.nvim_win_set_cursor(0, { 2, 14 })
  vim.lsp.buf.hover()
  local float
  wait_for('the hover float', function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then float = win return true end
    end
    return false
  end)
  seen.hover = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), '\n')

  -- Neovim 0.7 sends no file events: a fixture written outside it is seen at the next save of any
  -- buffer (:w of the unchanged order-created fixture here); the file is removed again afterwards.
  local created = root .. '/bad/created-outside.babel.json'
  local copy = assert(io.open(created, 'w'))
  copy:write(table.concat(before, '\n') .. '\n')
  copy:close()
  vim.api.nvim_set_current_buf(good)
  vim.cmd('write!')
  wait_for('diagnostics for a fixture written outside Neovim, after a save', function()
    return vim.fn.bufnr(created) ~= -1 and #vim.diagnostic.get(vim.fn.bufnr(created)) > 0
  end)
  seen.createdOutside = #vim.diagnostic.get(vim.fn.bufnr(created))
  os.remove(created)

  -- Nor does it say when registry.json changes outside it: team/registry.json rewritten on disk
  -- without its one entry (whose schema file is missing) is read again at the next save of any
  -- buffer, so its registry-error goes and its unopened fixture, whose URN the registry no longer
  -- knows, is sent unknown-urn instead. The file is written back as it was afterwards.
  local team_registry = root .. '/team/registry.json'
  local team_fixture = root .. '/team/invoice-paid.babel.json'
  local file = assert(io.open(team_registry, 'r'))
  local original = file:read('*a')
  file:close()
  local function write_registry(text)
    local out_file = assert(io.open(team_registry, 'w'))
    out_file:write(text)
    out_file:close()
  end
  local function codes_of(path)
    local codes = {}
    if vim.fn.bufnr(path) == -1 then return codes end
    for _, d in ipairs(vim.diagnostic.get(vim.fn.bufnr(path))) do table.insert(codes, d.code) end
    return codes
  end
  write_registry('{ "schemas": [] }\n')
  vim.cmd('write!')
  local ok, failure = pcall(wait_for, 'team/registry.json read again after a save', function()
    return #codes_of(team_registry) == 0 and vim.tbl_contains(codes_of(team_fixture), 'unknown-urn')
  end)
  seen.registryChangedOutside = { registry = codes_of(team_registry), fixture = codes_of(team_fixture) }
  write_registry(original)
  if not ok then error(failure, 0) end
end)

-- The steps run once this script has returned, in Neovim's main loop.
vim.defer_fn(resume, 0)
