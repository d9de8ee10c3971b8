-- SPDX-License-Identifier: MIT
-- Neovim (0.7+) as the LSP client: open a Python file, receive torchmigrate's diagnostics,
-- hover, apply a quick fix and a noqa suppression through Neovim's own edit machinery, and
-- check the buffer text and the re-published diagnostics. Exits 0 on success, 1 on failure.
local bin = assert(os.getenv('TORCHMIGRATE_BIN'), 'TORCHMIGRATE_BIN is not set')
local dir = assert(os.getenv('LSP_E2E_DIR'), 'LSP_E2E_DIR is not set')

local function check(condition, message)
  if not condition then error(message, 2) end
end

local function wait_for(what, predicate)
  check(vim.wait(15000, predicate, 20), 'timed out waiting for ' .. what)
end

local function run()
  local path = dir .. '/model.py'
  local file = assert(io.open(path, 'w'))
  -- é is two bytes and one UTF-16 unit, 😀 four bytes and two units: byte and UTF-16
  -- columns of the finding differ.
  file:write('import torch\n', 's = "é😀"; ep = torch.export.export(m, (x,))\n',
             'other = torch.export.export(n, (y,))\n')
  file:close()

  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'torchmigrate',
    cmd = { bin, 'server' },
    root_dir = dir,
  })
  check(client_id, 'the client did not start')
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  local diagnostics
  wait_for('diagnostics', function()
    diagnostics = vim.diagnostic.get(bufnr)
    return #diagnostics == 2
  end)
  table.sort(diagnostics, function(a, b) return a.lnum < b.lnum end)
  local first = diagnostics[1]
  check(first.code == 'TM201', 'unexpected code ' .. tostring(first.code))
  check(first.source == 'torchmigrate', 'unexpected source ' .. tostring(first.source))
  -- Neovim converts the server's UTF-16 columns to byte columns: 16 -> 19, 44 -> 47.
  check(first.lnum == 1 and first.col == 19 and first.end_col == 47,
        string.format('unexpected range %d:%d-%d', first.lnum, first.col, first.end_col))

  local position = { line = 1, character = 16 }
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = position }, 5000)
  local hover_text = hover and hover[client_id] and hover[client_id].result and hover[client_id].result.contents.value
  check(hover_text and hover_text:find('Before:', 1, true) and hover_text:find('strict=True', 1, true),
        'hover did not show the rule docs')

  local function actions_at(line, character, only)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = line, character = character }, ['end'] = { line = line, character = character } },
      context = { diagnostics = {}, only = only },
    }
    local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 5000)
    check(responses and responses[client_id], 'no code action response')
    check(not responses[client_id].err, 'code action error')
    return responses[client_id].result or {}
  end

  local function apply(actions, title_part)
    for _, action in ipairs(actions) do
      if action.title:find(title_part, 1, true) then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
        return
      end
    end
    error('no code action titled like ' .. title_part)
  end

  apply(actions_at(1, 16, { 'quickfix' }), 'strict=True')
  local line = vim.api.nvim_buf_get_lines(bufnr, 1, 2, true)[1]
  check(line == 's = "é😀"; ep = torch.export.export(m, (x,), strict=True)', 'after the quick fix: ' .. line)

  -- Neovim sends the edit as an incremental didChange; the server re-publishes.
  wait_for('the fixed finding to go away', function() return #vim.diagnostic.get(bufnr) == 1 end)
  check(vim.diagnostic.get(bufnr)[1].lnum == 2, 'the remaining finding moved')

  apply(actions_at(2, 10, { 'quickfix' }), 'noqa')
  line = vim.api.nvim_buf_get_lines(bufnr, 2, 3, true)[1]
  check(line == 'other = torch.export.export(n, (y,))  # noqa: TM201', 'after the suppression: ' .. line)
  wait_for('the suppressed finding to go away', function() return #vim.diagnostic.get(bufnr) == 0 end)

  -- Type a new finding at the end of the buffer, as a user would.
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { 'last = torch.export.export(k, (z,))' })
  wait_for('the typed finding', function()
    local current = vim.diagnostic.get(bufnr)
    return #current == 1 and current[1].lnum == 3
  end)
  apply(actions_at(0, 0, { 'source.fixAll' }), 'Fix all')
  line = vim.api.nvim_buf_get_lines(bufnr, 3, 4, true)[1]
  check(line == 'last = torch.export.export(k, (z,), strict=True)', 'after fix-all: ' .. line)

  vim.lsp.stop_client(client_id)
  wait_for('the server to stop', function() return vim.lsp.client_is_stopped(client_id) end)
end

local ok, err = pcall(run)
if ok then
  io.stdout:write('PASS: Neovim received diagnostics, hovered, and applied a quick fix, a suppression and fix-all\n')
  vim.cmd('qall!')
else
  io.stderr:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
