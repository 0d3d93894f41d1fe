-- Headless Neovim with README.md's Neovim 0.7 snippet as its init.lua, nothing added: opens a
-- fixture as a user would (:edit, which runs the snippet's autocommand), types <C-x><C-o> inside
-- its URN in insert mode as README says completion is reached, and writes what came of it to
-- $BABELQ_OUT as JSON: the buffer's 'omnifunc', the popup's items and the last error message.
--   BABELQ_WORKSPACE=<dir> BABELQ_OUT=<file> PATH=<installed bins>:$PATH \
--     nvim --headless -u <the snippet> -i NONE -c 'luafile test/editors/neovim-readme.lua'
local root = os.getenv('BABELQ_WORKSPACE')
local out = os.getenv('BABELQ_OUT')
local wait_ms = tonumber(os.getenv('BABELQ_WAIT_MS') or '15000')
local seen = {}

local main
local function finish()
  local file = assert(io.open(out, 'w'))
  file:write(vim.fn.json_encode(seen))
  file:close()
  vim.cmd('qall!')
end
local function resume()
  local ok, failure = coroutine.resume(main)
  if not ok then seen.error = tostring(failure) end
  if not ok or coroutine.status(main) == 'dead' then finish() end
end
-- Gives the main loop back every 30 ms (typed keys, LSP answers) until predicate() holds or the
-- wait is over; says whether it held.
local function wait_for(predicate)
  local deadline = vim.loop.now() + wait_ms
  while not predicate() do
    if vim.loop.now() > deadline then return false end
    vim.defer_fn(resume, 30)
    coroutine.yield()
  end
  return true
end

main = coroutine.create(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/orders/order-created.babel.json'))
  local buffer = vim.api.nvim_get_current_buf()
  seen.attached = wait_for(function() return next(vim.lsp.buf_get_clients(buffer)) ~= nil end)
  seen.omnifunc = vim.bo[buffer].omnifunc
  vim.v.errmsg = ''
  vim.api.nvim_win_set_cursor(0, { 2, 14 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('i<C-x><C-o>', true, false, true), 'n', false)
  wait_for(function() return #vim.fn.complete_info({ 'items' }).items > 0 end)
  seen.completion = {}
  for _, item in ipairs(vim.fn.complete_info({ 'items' }).items) do table.insert(seen.completion, item.abbr) end
  seen.errmsg = vim.v.errmsg
end)
vim.defer_fn(resume, 0)
