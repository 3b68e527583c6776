-- Neovim's built-in LSP client on numi's server: open the file named by
-- NUMI_LSP_FILE, wait for diagnostics, write them to NUMI_LSP_OUT one a
-- line as `line:column code message` (line from 1, column in bytes from 0,
-- as Neovim holds them after converting the server's positions).
local bin = os.getenv("NUMI_LSP_BIN")
local file = os.getenv("NUMI_LSP_FILE")
local out = os.getenv("NUMI_LSP_OUT")

local function finish(lines, code)
  local handle = assert(io.open(out, "w"))
  handle:write(table.concat(lines, "\n"), "\n")
  handle:close()
  vim.cmd(code == 0 and "qall!" or "cquit! " .. code)
end

-- NUMI_LSP_BESIDE names another YAML file (a workflow) opened first in
-- the same editor, on the same server, as an editor that starts numi on
-- every YAML buffer does: how many diagnostics it got is written too.
local beside = os.getenv("NUMI_LSP_BESIDE")
local beside_buffer = nil
if beside then
  vim.cmd("edit " .. vim.fn.fnameescape(beside))
  beside_buffer = vim.api.nvim_get_current_buf()
end
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "numi",
  cmd = { bin, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
if not client then
  finish({ "error: the server did not start" }, 2)
  return
end
if beside_buffer then
  vim.lsp.buf_attach_client(beside_buffer, client)
end
vim.lsp.buf_attach_client(buffer, client)

local arrived = vim.wait(20000, function()
  return #vim.diagnostic.get(buffer) > 0
end, 20)
if not arrived then
  finish({ "error: no diagnostics arrived" }, 3)
  return
end

local lines = {}
if beside_buffer then
  -- The server answers in the order it was told: the workflow was opened
  -- first, so whatever it would publish for it has arrived by now.
  vim.wait(500)
  table.insert(lines, string.format("beside: %d diagnostics", #vim.diagnostic.get(beside_buffer)))
end
for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
  local code = diagnostic.code or (diagnostic.user_data and diagnostic.user_data.lsp.code) or "?"
  table.insert(lines, string.format("%d:%d %s %s", diagnostic.lnum + 1, diagnostic.col, code, diagnostic.message))
end
table.sort(lines)

-- The client must still be answered after the diagnostics: a hover on the
-- first finding returns the rule's explanation.
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buffer) },
  position = { line = 4, character = 12 },
}
local replies = vim.lsp.buf_request_sync(buffer, "textDocument/hover", params, 10000) or {}
for _, reply in pairs(replies) do
  if reply.result and reply.result.contents then
    local value = reply.result.contents.value or ""
    table.insert(lines, "hover: " .. (value:match("%(%[`([^`]+)`%]") or "?"))
  end
end

-- With NUMI_LSP_APPLY set, the editor asks for the code actions at the
-- first finding, applies "fix all in file" as the user would, and the
-- buffer's text after the edit is written out too.
if os.getenv("NUMI_LSP_APPLY") then
  local first = vim.diagnostic.get(buffer)[1]
  local at = { line = first.lnum, character = first.col }
  local request = {
    textDocument = { uri = vim.uri_from_bufnr(buffer) },
    range = { start = at, ["end"] = at },
    context = { diagnostics = {} },
  }
  local answers = vim.lsp.buf_request_sync(buffer, "textDocument/codeAction", request, 10000) or {}
  local applied = false
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if not applied and action.title == "numi: fix all in file" and action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
        applied = true
      end
    end
  end
  table.insert(lines, applied and "applied: numi: fix all in file" or "applied: nothing")
  for _, text in ipairs(vim.api.nvim_buf_get_lines(buffer, 0, -1, false)) do
    table.insert(lines, "| " .. text)
  end
end

vim.lsp.stop_client(client)
finish(lines, 0)
