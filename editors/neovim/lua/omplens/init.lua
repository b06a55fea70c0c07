-- omplens for Neovim: starts `omplens lsp` with Neovim's built-in LSP client for every C and
-- C++ buffer (one client per root directory) and adds user commands for the server's own
-- commands (data-region insertion, the mapping plan).
--
-- Works on Neovim 0.7 (Debian bookworm) and later: 0.7 has no vim.lsp.start, so clients are
-- started with vim.lsp.start_client and attached with vim.lsp.buf_attach_client there.

local compat = require('omplens.compat')

local M = {}

local defaults = {
  cmd = { 'omplens', 'lsp' },
  -- Environment of the server process (table of NAME = value).
  cmd_env = nil,
  filetypes = { 'c', 'cpp' },
  -- Files or directories marking a project root; the nearest directory (from the file's
  -- upwards) holding any of them is the root. A function(path) -> dir|nil replaces the search.
  root_markers = { 'compile_commands.json', '.omplens.toml', '.git' },
  -- Server settings (see :help omplens-settings): sent as initializationOptions, answered to
  -- `workspace/configuration` (section "omplens") and pushed on set_settings().
  settings = {},
  -- Extra client capabilities, merged into Neovim's defaults.
  capabilities = nil,
  handlers = nil,
  -- function(client, bufnr), called when a buffer is attached.
  on_attach = nil,
  -- Refresh code lenses (bytes per kernel launch) on attach, write and leaving insert mode.
  codelens = false,
  -- Turn on inlay hints (implicit data-sharing of kernels) where Neovim supports them (0.10+).
  inlay_hints = false,
  -- Milliseconds the client waits before sending a change (nil: Neovim's default).
  debounce_text_changes = nil,
  -- Client name; the user commands act on the clients of this name.
  name = 'omplens',
  -- false: only the user commands, no clients started by the plugin (when another
  -- configuration, e.g. nvim-lspconfig or vim.lsp.config, starts the server).
  autostart = true,
}

-- The state of the plugin: the options of the last setup(), and the client of each root.
local state = {
  opts = nil,
  clients = {}, -- root directory -> client id
  warned_missing = false,
  plan_bufs = {}, -- source buffer -> plan scratch buffer
}

local function notify(msg, level)
  vim.notify('omplens: ' .. msg, level or vim.log.levels.INFO)
end

---------------------------------------------------------------------------------------------
-- Roots
---------------------------------------------------------------------------------------------

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

--- The root directory of the file at `path`: the nearest directory upwards holding one of
--- `markers`, else the file's own directory.
function M.find_root(path, markers)
  markers = markers or defaults.root_markers
  if type(markers) == 'function' then
    local r = markers(path)
    if r then
      return r
    end
    return dirname(path)
  end
  local start = dirname(path)
  local dir = start
  while true do
    for _, m in ipairs(markers) do
      if compat.uv.fs_stat(dir .. '/' .. m) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      return start
    end
    dir = parent
  end
end

---------------------------------------------------------------------------------------------
-- Clients
---------------------------------------------------------------------------------------------

local function live_client(id)
  local c = id and vim.lsp.get_client_by_id(id)
  if c and not compat.call(c, 'is_stopped') then
    return c
  end
  return nil
end

--- The omplens clients running now (optionally only the one attached to `bufnr`).
function M.clients(bufnr)
  local out = {}
  for _, c in ipairs(compat.get_clients(bufnr)) do
    if c.name == (state.opts and state.opts.name or defaults.name) then
      table.insert(out, c)
    end
  end
  return out
end

local function client_of(bufnr)
  return M.clients(bufnr)[1]
end

local function make_capabilities(extra)
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.workspace = caps.workspace or {}
  -- Neovim 0.7 answers workspace/configuration (from `settings`) without advertising it.
  caps.workspace.configuration = true
  if extra then
    caps = vim.tbl_deep_extend('force', caps, extra)
  end
  return caps
end

local function client_config(opts, root)
  local settings = vim.deepcopy(opts.settings or {})
  local flags = {}
  if opts.debounce_text_changes then
    flags.debounce_text_changes = opts.debounce_text_changes
  end
  return {
    name = opts.name,
    cmd = opts.cmd,
    cmd_env = opts.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    -- An empty table would be encoded as a JSON array: send an object.
    init_options = next(settings) and settings or vim.empty_dict(),
    settings = { omplens = settings },
    capabilities = make_capabilities(opts.capabilities),
    handlers = opts.handlers,
    flags = flags,
    on_init = function(client, result)
      client.omplens_server_info = result and result.serverInfo
    end,
    on_attach = function(client, bufnr)
      M._on_attach(client, bufnr)
    end,
    on_exit = function(_, _, client_id)
      for root_dir, id in pairs(state.clients) do
        if id == client_id then
          state.clients[root_dir] = nil
        end
      end
    end,
  }
end

local function buffer_path(bufnr)
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  return vim.fn.fnamemodify(name, ':p')
end

--- Attaches omplens to `bufnr` (a C or C++ buffer with a file name), starting the client of
--- its root directory when there is none. Returns the client id, or nil.
function M.attach(bufnr)
  local opts = state.opts
  if not opts or not opts.autostart then
    return nil
  end
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return nil
  end
  if not vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) then
    return nil
  end
  local path = buffer_path(bufnr)
  if not path then
    return nil
  end
  if vim.fn.executable(opts.cmd[1]) ~= 1 then
    if not state.warned_missing then
      state.warned_missing = true
      notify(
        string.format('cannot run `%s` (set `cmd` in setup(), see :help omplens-setup)', opts.cmd[1]),
        vim.log.levels.ERROR
      )
    end
    return nil
  end
  local root = M.find_root(path, opts.root_markers)
  local id
  local existing = live_client(state.clients[root])
  if existing then
    id = existing.id
    vim.lsp.buf_attach_client(bufnr, id)
  elseif vim.lsp.start then
    -- 0.8+: reuses a running client of the same name and root by itself.
    id = vim.lsp.start(client_config(opts, root), { bufnr = bufnr })
  else
    id = vim.lsp.start_client(client_config(opts, root))
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
  if id then
    state.clients[root] = id
  end
  return id
end

function M._on_attach(client, bufnr)
  local opts = state.opts or defaults
  if opts.codelens and vim.lsp.codelens then
    local group = vim.api.nvim_create_augroup('omplens_codelens_' .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd({ 'BufEnter', 'BufWritePost', 'InsertLeave' }, {
      group = group,
      buffer = bufnr,
      callback = function()
        -- 0.7 refreshes the current buffer (the autocmd's) and ignores the argument.
        pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
      end,
    })
    if bufnr == vim.api.nvim_get_current_buf() then
      pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
    end
  end
  if opts.inlay_hints then
    compat.enable_inlay_hints(bufnr)
  end
  if opts.on_attach then
    opts.on_attach(client, bufnr)
  end
end

--- New server settings for every running client (and clients started later): pushed with
--- `workspace/didChangeConfiguration`.
function M.set_settings(settings)
  if not state.opts then
    return
  end
  state.opts.settings = vim.deepcopy(settings or {})
  for _, c in ipairs(M.clients()) do
    c.config.settings = { omplens = vim.deepcopy(state.opts.settings) }
    compat.call(c, 'notify', 'workspace/didChangeConfiguration', {
      settings = { omplens = next(state.opts.settings) and state.opts.settings or vim.empty_dict() },
    })
  end
end

--- Stops every omplens client and starts fresh ones for the buffers they served.
function M.restart()
  if state.opts and not state.opts.autostart then
    notify('clients are started elsewhere (autostart = false): use that configuration\'s restart, e.g. :LspRestart', vim.log.levels.WARN)
    return
  end
  local bufs = {}
  local stopping = {}
  for _, c in ipairs(M.clients()) do
    for _, b in ipairs(vim.lsp.get_buffers_by_client_id(c.id)) do
      bufs[b] = true
    end
    compat.call(c, 'stop')
    table.insert(stopping, c.id)
  end
  state.clients = {}
  -- Two servers must not race on the same root: wait (up to 5 s) for the old ones to exit.
  vim.wait(5000, function()
    for _, id in ipairs(stopping) do
      local c = vim.lsp.get_client_by_id(id)
      if c and not compat.call(c, 'is_stopped') then
        return false
      end
    end
    return true
  end, 20)
  for _, id in ipairs(stopping) do
    local c = vim.lsp.get_client_by_id(id)
    if c then
      compat.call(c, 'stop', true)
    end
  end
  if next(bufs) == nil then
    bufs[vim.api.nvim_get_current_buf()] = true
  end
  for b in pairs(bufs) do
    M.attach(b)
  end
end

---------------------------------------------------------------------------------------------
-- Server commands
---------------------------------------------------------------------------------------------

-- Sends `workspace/executeCommand` to the omplens client of `bufnr`; `done(err, result)`.
local function execute(bufnr, command, arguments, done)
  local client = client_of(bufnr)
  if not client then
    done({ message = 'no omplens client is attached to this buffer' }, nil)
    return
  end
  local ok = compat.call(client, 'request', 'workspace/executeCommand', {
    command = command,
    arguments = arguments,
  }, function(err, result)
    done(err, result)
  end, bufnr)
  if not ok then
    done({ message = 'the omplens server is not running' }, nil)
  end
end

-- Records the outcome of a command in b:omplens_last_command (for scripts and statuslines).
local function record(bufnr, command, err, result)
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.b[bufnr].omplens_last_command = {
      command = command,
      error = err and (err.message or tostring(err)) or vim.NIL,
      result = result == nil and vim.NIL or result,
    }
  end
end

local function insert(bufnr, command, arguments, cb)
  execute(bufnr, command, arguments, function(err, result)
    record(bufnr, command, err, result)
    if cb then
      cb(err, result)
      return
    end
    if err then
      notify(err.message or tostring(err), vim.log.levels.ERROR)
    elseif type(result) == 'table' and result.applied then
      notify('data mappings inserted')
    else
      local reason = type(result) == 'table' and result.reason or nil
      notify('nothing inserted' .. (reason and (': ' .. reason) or ''), vim.log.levels.WARN)
    end
  end)
end

--- Inserts the data mappings of the function at the cursor (`omplens.insertDataRegion.function`).
--- The server applies the edit itself (workspace/applyEdit). `cb(err, {applied, reason?})`
--- replaces the notification when given.
function M.insert_mappings(cb)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = client_of(bufnr)
  local params = vim.lsp.util.make_position_params(0, client and client.offset_encoding or 'utf-16')
  insert(bufnr, 'omplens.insertDataRegion.function', { params.textDocument.uri, params.position }, cb)
end

--- Inserts the data mappings of the whole file, as `omplens fix` writes them.
function M.insert_mappings_file(cb)
  local bufnr = vim.api.nvim_get_current_buf()
  insert(bufnr, 'omplens.insertDataRegion.file', { vim.uri_from_bufnr(bufnr) }, cb)
end

-- A scratch buffer named `name` holding `lines`, shown in a split (reused when it exists).
local function show_scratch(key, name, lines, filetype)
  local buf = state.plan_bufs[key]
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    buf = vim.api.nvim_create_buf(false, true)
    state.plan_bufs[key] = buf
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    pcall(vim.api.nvim_buf_set_name, buf, name)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.api.nvim_set_current_win(win)
  end
  return buf
end

--- Opens the mapping plan of the current file (`omplens.showPlan`) in a scratch buffer.
--- `cb(err, buf)` is called once it is shown.
function M.show_plan(cb)
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  execute(bufnr, 'omplens.showPlan', { uri, { show = false } }, function(err, result)
    record(bufnr, 'omplens.showPlan', err, result)
    if err or type(result) ~= 'string' then
      local msg = err and (err.message or tostring(err)) or 'the server sent no plan'
      if cb then
        cb({ message = msg }, nil)
      else
        notify(msg, vim.log.levels.ERROR)
      end
      return
    end
    local name = 'omplens-plan://' .. vim.api.nvim_buf_get_name(bufnr)
    local buf = show_scratch(bufnr, name, vim.split(result, '\n', { plain = true }), 'omplensplan')
    if cb then
      cb(nil, buf)
    end
  end)
end

--- What the plugin knows about its clients, as lines.
function M.info_lines()
  local lines = {}
  local opts = state.opts
  if not opts then
    return { 'omplens: setup() has not been called' }
  end
  table.insert(lines, 'omplens for Neovim ' .. compat.version_string())
  table.insert(lines, 'cmd: ' .. table.concat(opts.cmd, ' '))
  table.insert(lines, 'filetypes: ' .. table.concat(opts.filetypes, ', '))
  table.insert(lines, 'settings: ' .. vim.fn.json_encode(next(opts.settings) and opts.settings or vim.empty_dict()))
  table.insert(lines, 'LSP log: ' .. vim.lsp.get_log_path())
  local clients = M.clients()
  if #clients == 0 then
    table.insert(lines, 'no omplens client is running')
  end
  for _, c in ipairs(clients) do
    local info = c.omplens_server_info
    local server = info and (info.name .. ' ' .. (info.version or '')) or '(initializing)'
    local bufs = {}
    for _, b in ipairs(vim.lsp.get_buffers_by_client_id(c.id)) do
      table.insert(bufs, string.format('%d:%s', b, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':~:.')))
    end
    table.insert(lines, '')
    table.insert(lines, string.format('client %d: %s', c.id, server))
    table.insert(lines, '  root: ' .. tostring(c.config.root_dir))
    table.insert(lines, '  buffers: ' .. (#bufs > 0 and table.concat(bufs, ' ') or 'none'))
  end
  return lines
end

function M.info()
  show_scratch('info', 'omplens-info://', M.info_lines(), 'omplensinfo')
end

function M.open_log()
  vim.cmd('botright split ' .. vim.fn.fnameescape(vim.lsp.get_log_path()))
end

--- The options of the last setup() (nil before it).
function M.options()
  return state.opts
end

--- The diagnostics the omplens clients published for `bufnr` (vim.diagnostic items): the
--- findings (source "omplens") and the clang errors that make them incomplete ("clang").
function M.diagnostics(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local out = {}
  for _, c in ipairs(M.clients(bufnr)) do
    local ns = vim.lsp.diagnostic.get_namespace(c.id)
    for _, d in ipairs(vim.diagnostic.get(bufnr, { namespace = ns })) do
      table.insert(out, d)
    end
  end
  return out
end

---------------------------------------------------------------------------------------------
-- Setup
---------------------------------------------------------------------------------------------

local function create_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('OmplensInsertMappings', function()
    M.insert_mappings()
  end, { desc = 'omplens: insert the data mappings of the function at the cursor' })
  cmd('OmplensInsertMappingsFile', function()
    M.insert_mappings_file()
  end, { desc = 'omplens: insert the data mappings of the whole file' })
  cmd('OmplensShowPlan', function()
    M.show_plan()
  end, { desc = 'omplens: show the mapping plan of this file' })
  cmd('OmplensRestart', function()
    M.restart()
  end, { desc = 'omplens: restart the language server' })
  cmd('OmplensInfo', function()
    M.info()
  end, { desc = 'omplens: clients, roots, settings' })
  cmd('OmplensLog', function()
    M.open_log()
  end, { desc = "omplens: open Neovim's LSP log" })
end

local function validate(opts)
  vim.validate({
    cmd = { opts.cmd, 't' },
    filetypes = { opts.filetypes, 't' },
    settings = { opts.settings, 't' },
    on_attach = { opts.on_attach, 'f', true },
    root_markers = { opts.root_markers, { 't', 'f' } },
  })
  if #opts.cmd == 0 or type(opts.cmd[1]) ~= 'string' then
    error('omplens: `cmd` must be a list of strings, e.g. { "omplens", "lsp" }')
  end
end

--- Configures the plugin: user commands, and attaching to every C and C++ buffer (those open
--- now and those opened later). Calling it again replaces the options; running clients keep
--- theirs until :OmplensRestart.
function M.setup(user)
  local opts = vim.tbl_deep_extend('force', vim.deepcopy(defaults), user or {})
  -- Lists replace the defaults rather than merging index by index.
  for _, k in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    if user and user[k] ~= nil then
      opts[k] = user[k]
    end
  end
  validate(opts)
  state.opts = opts
  state.warned_missing = false
  create_commands()
  local group = vim.api.nvim_create_augroup('omplens', { clear = true })
  if not opts.autostart then
    return
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.attach(b)
    end
  end
end

return M
