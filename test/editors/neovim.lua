-- Headless Neovim (0.7+) against the BabelQueue language server: starts the server with
-- vim.lsp.start_client as a user's init.lua would, opens two fixtures of the workspace, waits for
-- the pushed diagnostics and asks for a URN completion, a hover and the quick fixes of a
-- forbidden key. Writes what Neovim saw to $BABELQ_OUT as JSON, then quits.
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

local function open(path, client_id)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. path))
  local buffer = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buffer, client_id)
  return buffer
end

-- The first answer of the one client, or an error naming the request.
local function request(buffer, method, params)
  local answers, err = vim.lsp.buf_request_sync(buffer, method, params, wait_ms)
  if not answers then error(method .. ': ' .. tostring(err)) end
  for _, answer in pairs(answers) do
    if answer.error then error(method .. ': ' .. vim.inspect(answer.error)) end
    return answer.result
  end
  error(method .. ': no answer')
end

local ok, failure = pcall(function()
  local client_id = vim.lsp.start_client({ name = 'babelq', cmd = { server, '--stdio' }, root_dir = root })
  if not client_id then error('vim.lsp.start_client did not start ' .. server) end

  local bad = open('bad/contract.babel.json', client_id)
  if not vim.wait(wait_ms, function() return #vim.diagnostic.get(bad) > 0 end, 50) then
    error('no diagnostics for bad/contract.babel.json within ' .. wait_ms .. ' ms')
  end
  seen.diagnostics = {}
  local forbidden
  for _, d in ipairs(vim.diagnostic.get(bad)) do
    table.insert(seen.diagnostics, { code = d.code, line = d.lnum, character = d.col, endLine = d.end_lnum, endCharacter = d.end_col, severity = d.severity })
    if d.code == 'forbidden-key' and not forbidden then forbidden = d end
  end
  if forbidden then
    -- The diagnostics in LSP form, as vim.lsp.buf.code_action sends them.
    local context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bad, forbidden.lnum) }
    local range = { start = { line = forbidden.lnum, character = forbidden.col }, ['end'] = { line = forbidden.end_lnum, character = forbidden.end_col } }
    local actions = request(bad, 'textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(bad) }, range = range, context = context }) or {}
    seen.codeActions = {}
    for _, action in ipairs(actions) do table.insert(seen.codeActions, action.title) end
  end

  -- Inside the URN of "job" on line 2.
  local good = open('orders/order-created.babel.json', client_id)
  local position = { textDocument = { uri = vim.uri_from_bufnr(good) }, position = { line = 1, character = 14 } }
  local completion = request(good, 'textDocument/completion', position) or {}
  seen.completion = {}
  for _, item in ipairs(completion.items or completion) do table.insert(seen.completion, item.label) end
  local hover = request(good, 'textDocument/hover', position)
  seen.hover = hover and hover.contents and (hover.contents.value or hover.contents) or vim.NIL
end)
if not ok then seen.error = tostring(failure) end
finish()
