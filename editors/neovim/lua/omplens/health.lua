-- :checkhealth omplens

local M = {}

-- The report functions were renamed in 0.10 (start/ok/...), lived in `health` before 0.8.
local h = vim.health or require('health')
local start = h.start or h.report_start
local ok = h.ok or h.report_ok
local warn = h.warn or h.report_warn
local err = h.error or h.report_error
local info = h.info or h.report_info

function M.check()
  start('omplens')
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch)
  else
    err('Neovim 0.7 or later is needed')
  end
  local omplens = require('omplens')
  local opts = omplens.options()
  if not opts then
    warn("setup() has not been called: add require('omplens').setup({}) to your configuration")
    return
  end
  local exe = opts.cmd[1]
  if vim.fn.executable(exe) == 1 then
    local out = vim.fn.system({ exe, '--version' })
    if vim.v.shell_error == 0 then
      ok(string.format('`%s` runs: %s', exe, vim.trim(out)))
    else
      err(string.format('`%s --version` failed: %s', exe, vim.trim(out)))
    end
  else
    err(string.format('`%s` is not executable: build omplens (cargo build --release) and set `cmd`', exe))
  end
  if not opts.autostart then
    info('autostart = false: clients come from another configuration')
  end
  local clients = omplens.clients()
  if #clients == 0 then
    info('no omplens client is running (open a C or C++ file)')
  end
  for _, c in ipairs(clients) do
    ok(string.format('client %d, root %s', c.id, tostring(c.config.root_dir)))
  end
end

return M
