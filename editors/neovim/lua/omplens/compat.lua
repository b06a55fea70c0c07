-- What differs between the Neovim versions omplens supports (0.7 to current).

local M = {}

M.uv = vim.uv or vim.loop

-- 0.11 made client methods real methods (client:request(...)); before, they were closures
-- called with a dot (client.request(...)). Calling the wrong way warns or breaks.
local method_style = vim.fn.has('nvim-0.11') == 1

--- Calls the client method `name` with the given arguments, the way this Neovim expects.
function M.call(client, name, ...)
  local f = client[name]
  if type(f) ~= 'function' then
    return nil
  end
  if method_style then
    return f(client, ...)
  end
  return f(...)
end

--- Running LSP clients, optionally only those attached to `bufnr`.
function M.get_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(bufnr and { bufnr = bufnr } or nil)
  end
  if bufnr then
    if bufnr == 0 then
      bufnr = vim.api.nvim_get_current_buf()
    end
    local out = {}
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      table.insert(out, c)
    end
    table.sort(out, function(a, b)
      return a.id < b.id
    end)
    return out
  end
  return vim.lsp.get_active_clients()
end

function M.enable_inlay_hints(bufnr)
  local ih = vim.lsp.inlay_hint
  if not ih then
    return false
  end
  -- 0.10 and later: enable(enable, filter); a few 0.10 pre-releases had enable(bufnr, enable).
  local ok = pcall(ih.enable, true, { bufnr = bufnr })
  if not ok then
    ok = pcall(ih.enable, bufnr, true)
  end
  return ok
end

function M.version_string()
  local v = vim.version()
  return string.format('(Neovim %d.%d.%d)', v.major, v.minor, v.patch)
end

return M
