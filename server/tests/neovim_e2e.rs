//! The Neovim plugin (editors/neovim) with a real client: Neovim's built-in LSP client runs
//! the built `omplens lsp`.
//!
//! - `headless_insert_mappings_passes_the_oracle`: headless Neovim opens a copy of a program
//!   whose kernels copy their arrays at every launch of a time loop, waits for the omplens
//!   diagnostic, shows the plan, restarts the server, changes its settings, runs `:OmplensInsertMappings` on the
//!   function, waits for the diagnostic to go, checks that `:OmplensInsertMappingsFile` has
//!   nothing left to insert, and `:write`s the file. The written program
//!   must give the reference result under the host-offload oracle with fewer copies.
//! - `tmux_screen_shows_diagnostic_and_hover`: the real (terminal) Neovim in a detached tmux
//!   session of fixed size opens the same program, shows the diagnostic as virtual text and
//!   the hover of the directive; `tmux capture-pane` writes the screen to
//!   `target/neovim-capture.txt`, which must show both.
//!
//! Slow tier (`OMPLENS_SLOW=1`, see `omplens_tests::tier`). There, Neovim, tmux and the
//! oracle's tools are required: a missing one fails the test (scripts/install-editor-deps.sh
//! and scripts/bootstrap.sh install them).
//! Every wait has a time limit, so a hang fails the test instead of hanging CI.

mod common;

use common::repo;
use omplens_tests::oracle::{self, run_with_timeout};
use omplens_tests::tier;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The program: two kernels in a time loop map both arrays implicitly at every launch.
const PROGRAM: &str = "tests/check/waste_implicit_time_loop.c";
/// Each wait inside Neovim (diagnostics, a command's answer), in milliseconds.
const LUA_WAIT_MS: u64 = 60_000;
/// The whole Neovim run; kills it (and the server it started) when exceeded.
const NVIM_LIMIT: Duration = Duration::from_secs(150);

/// The driver, run as Neovim's init file. Its parameters come from the JSON file named by
/// `$OMPLENS_E2E_PARAMS`; it writes what it saw to `params.report` as JSON.
const DRIVER: &str = r#"
local P = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv('OMPLENS_E2E_PARAMS')), '\n'))
vim.opt.runtimepath:prepend(P.plugin_dir)
vim.o.swapfile = false
-- Show the rule's code in the virtual text (the README's suggested configuration).
vim.diagnostic.config({
  virtual_text = {
    format = function(d)
      return d.code and (d.code .. ': ' .. d.message) or d.message
    end,
  },
})

local omplens = require('omplens')
omplens.setup({ cmd = { P.omplens, 'lsp' }, settings = P.settings })

local report = { steps = {} }
local function step(s)
  table.insert(report.steps, s)
end
-- Written whole, then renamed: the test polls for the file and must never read half of it.
local function save()
  vim.fn.writefile({ vim.fn.json_encode(report) }, P.report .. '.tmp')
  assert(os.rename(P.report .. '.tmp', P.report))
end
local function diags()
  local out = {}
  for _, d in ipairs(omplens.diagnostics(0)) do
    table.insert(out, { line = d.lnum + 1, col = d.col + 1, code = d.code or vim.NIL, message = d.message })
  end
  return out
end
local function has_code(code)
  for _, d in ipairs(omplens.diagnostics(0)) do
    if d.code == code then
      return d
    end
  end
  return nil
end
local function client_info()
  local c = omplens.clients(0)[1]
  if not c then
    return vim.NIL
  end
  return { id = c.id, root = c.config.root_dir, server = c.omplens_server_info or vim.NIL }
end
local function wait(what, pred)
  if not vim.wait(P.wait_ms, pred, 20) then
    error('timed out waiting for ' .. what)
  end
end

-- Headless: the whole scenario runs here, blocking waits included.
local function edit_scenario()
  vim.cmd('edit ' .. vim.fn.fnameescape(P.file))
  step('opened')
  wait('the omplens client', function()
    return omplens.clients(0)[1] ~= nil
  end)
  report.client = client_info()
  wait('the ' .. P.code .. ' diagnostic', function()
    return has_code(P.code) ~= nil
  end)
  report.diagnostics_before = diags()
  step('diagnostics')

  -- :OmplensShowPlan opens the plan in a scratch buffer.
  local src_win = vim.api.nvim_get_current_win()
  vim.cmd('OmplensShowPlan')
  wait('the plan buffer', function()
    return vim.bo.filetype == 'omplensplan'
  end)
  report.plan = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.api.nvim_win_close(0, true)
  vim.api.nvim_set_current_win(src_win)
  step('plan')

  -- :OmplensRestart gives a new client that publishes the diagnostic again.
  local old = report.client.id
  vim.cmd('OmplensRestart')
  wait('a new omplens client', function()
    local c = omplens.clients(0)[1]
    return c ~= nil and c.id ~= old
  end)
  wait('the ' .. P.code .. ' diagnostic from the new client', function()
    local d = has_code(P.code)
    return d ~= nil and d.namespace == vim.lsp.diagnostic.get_namespace(omplens.clients(0)[1].id)
  end)
  report.client_after_restart = client_info()
  report.clients_after_restart = #omplens.clients()
  step('restarted')

  -- set_settings() reaches the running server (workspace/didChangeConfiguration): ignoring
  -- the rule removes its diagnostic, the previous settings bring it back.
  local ignoring = vim.deepcopy(P.settings)
  ignoring.checks = { ignore = { P.code } }
  omplens.set_settings(ignoring)
  wait('the ' .. P.code .. ' diagnostic to go with checks.ignore', function()
    return has_code(P.code) == nil
  end)
  omplens.set_settings(P.settings)
  wait('the ' .. P.code .. ' diagnostic to come back', function()
    return has_code(P.code) ~= nil
  end)
  step('settings')

  -- The data region of the function the diagnostic is in, through the user command.
  local d = has_code(P.code)
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  vim.b.omplens_last_command = nil
  vim.cmd('OmplensInsertMappings')
  wait('the answer to :OmplensInsertMappings', function()
    return vim.b.omplens_last_command ~= nil
  end)
  report.command = vim.b.omplens_last_command
  step('inserted')
  wait('the ' .. P.code .. ' diagnostic to go', function()
    return has_code(P.code) == nil
  end)
  report.diagnostics_after = diags()
  -- The whole file needs nothing more now: the file command says so and changes nothing.
  local tick = vim.b.changedtick
  vim.cmd('OmplensInsertMappingsFile')
  wait('the answer to :OmplensInsertMappingsFile', function()
    return vim.b.omplens_last_command.command == 'omplens.insertDataRegion.file'
  end)
  report.file_command = vim.b.omplens_last_command
  report.changed_by_file_command = vim.b.changedtick ~= tick
  vim.cmd('write')
  report.modified_after_write = vim.bo.modified
  step('written')
  report.messages = vim.fn.execute('messages')
end

-- In a terminal: waits without blocking the screen, then opens the hover and leaves the
-- screen to the test, which captures it and quits.
local function capture_scenario()
  vim.o.number = true
  local timer = (vim.uv or vim.loop).new_timer()
  local start = (vim.uv or vim.loop).now()
  local hovered = false
  timer:start(50, 50, vim.schedule_wrap(function()
    if (vim.uv or vim.loop).now() - start > P.wait_ms then
      timer:stop()
      report.error = 'timed out in the capture scenario after ' .. table.concat(report.steps, ', ')
      save()
      return
    end
    if not hovered then
      local d = has_code(P.code)
      if not d then
        return
      end
      report.diagnostics_before = diags()
      step('diagnostics')
      vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
      vim.lsp.buf.hover()
      hovered = true
      step('hover requested')
      return
    end
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then
        report.hover = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false)
        step('hover shown')
        timer:stop()
        save()
        return
      end
    end
  end))
end

local scenario = P.mode == 'capture' and capture_scenario or edit_scenario
vim.api.nvim_create_autocmd('VimEnter', {
  -- nested: :edit inside must fire FileType (and so attach the plugin).
  nested = true,
  callback = function()
    local ok, err = xpcall(scenario, debug.traceback)
    if not ok then
      report.error = tostring(err)
      save()
      vim.cmd('cquit 3')
      return
    end
    if P.mode ~= 'capture' then
      save()
      vim.cmd('qall!')
    end
  end,
})
"#;

/// The missing-tool policy for Neovim.
fn has_nvim(test: &str) -> bool {
    tier::command(test, "nvim", "scripts/install-editor-deps.sh (Neovim 0.7+)")
}

fn nvim_version() -> String {
    let out = Command::new("nvim")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run nvim ({e}): run scripts/install-editor-deps.sh (Neovim 0.7+)")
        });
    assert!(out.status.success(), "nvim --version failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

/// The workspace's target directory: the binary is `target/<profile>/omplens`.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_omplens"))
        .parent()
        .and_then(Path::parent)
        .expect("the binary lies in target/<profile>/")
        .to_path_buf()
}

/// A temporary directory with a copy of the program, the driver and its parameters.
struct Setup {
    dir: tempfile::TempDir,
    file: PathBuf,
    params: PathBuf,
    report: PathBuf,
}

impl Setup {
    fn new(mode: &str) -> Setup {
        let dir = tempfile::Builder::new()
            .prefix("omplens-nvim-")
            .tempdir()
            .expect("temporary directory");
        let src = repo().join(PROGRAM);
        let file = dir.path().join(src.file_name().unwrap());
        std::fs::copy(&src, &file).expect("copy the program");
        std::fs::write(dir.path().join("init.lua"), DRIVER).unwrap();
        let report = dir.path().join("report.json");
        let params = dir.path().join("params.json");
        let p = json!({
            "mode": mode,
            "plugin_dir": repo().join("editors/neovim"),
            "omplens": env!("CARGO_BIN_EXE_omplens"),
            "file": file,
            "report": report,
            "code": "OMP209",
            "wait_ms": LUA_WAIT_MS,
            "settings": {"debounceMs": 20},
        });
        std::fs::write(&params, p.to_string()).unwrap();
        for d in ["config", "data", "state", "cache"] {
            std::fs::create_dir_all(dir.path().join("xdg").join(d)).unwrap();
        }
        Setup {
            dir,
            file,
            params,
            report,
        }
    }

    fn init(&self) -> PathBuf {
        self.dir.path().join("init.lua")
    }

    /// The environment Neovim runs in: its own config, data, state and cache directories
    /// (the LSP log lands in `xdg/cache` or `xdg/state`), and the driver's parameters.
    fn env(&self) -> Vec<(String, String)> {
        let xdg = self.dir.path().join("xdg");
        vec![
            (
                "OMPLENS_E2E_PARAMS".into(),
                self.params.display().to_string(),
            ),
            (
                "XDG_CONFIG_HOME".into(),
                xdg.join("config").display().to_string(),
            ),
            (
                "XDG_DATA_HOME".into(),
                xdg.join("data").display().to_string(),
            ),
            (
                "XDG_STATE_HOME".into(),
                xdg.join("state").display().to_string(),
            ),
            (
                "XDG_CACHE_HOME".into(),
                xdg.join("cache").display().to_string(),
            ),
        ]
    }

    fn report(&self) -> Option<Value> {
        let text = std::fs::read_to_string(&self.report).ok()?;
        Some(serde_json::from_str(&text).expect("the driver's report is JSON"))
    }

    /// Neovim's LSP log (for failure messages).
    fn lsp_log(&self) -> String {
        let xdg = self.dir.path().join("xdg");
        for p in ["cache/nvim/lsp.log", "state/nvim/lsp.log"] {
            if let Ok(s) = std::fs::read_to_string(xdg.join(p)) {
                let tail: Vec<&str> = s.lines().rev().take(40).collect();
                return tail.into_iter().rev().collect::<Vec<_>>().join("\n");
            }
        }
        "(no LSP log)".into()
    }
}

fn codes(diags: &Value) -> Vec<String> {
    diags
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["code"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn headless_insert_mappings_passes_the_oracle() {
    let test = "neovim_e2e::headless_insert_mappings_passes_the_oracle";
    if !(tier::slow(test) && has_nvim(test) && oracle::gate(test)) {
        return;
    }
    let version = nvim_version();
    let s = Setup::new("edit");
    let original = std::fs::read_to_string(&s.file).unwrap();

    let mut cmd = Command::new("nvim");
    cmd.args(["--headless", "--clean", "-u"])
        .arg(s.init())
        .current_dir(s.dir.path());
    for (k, v) in s.env() {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let done = run_with_timeout(cmd, NVIM_LIMIT).expect("start nvim");
    let took = started.elapsed();
    let report = s.report();
    let shown = format!("{report:#?}");
    let context = || {
        format!(
            "{version}, {took:?}\nreport: {shown}\nnvim stdout:\n{}\nnvim stderr:\n{}\nLSP log (tail):\n{}",
            done.stdout,
            done.stderr,
            s.lsp_log()
        )
    };
    let status = done
        .status
        .unwrap_or_else(|| panic!("nvim ran past {NVIM_LIMIT:?} and was killed; {}", context()));
    assert!(status.success(), "nvim exited with {status}; {}", context());
    let report = report.unwrap_or_else(|| panic!("nvim wrote no report; {}", context()));
    assert!(report["error"].is_null(), "{}", context());
    assert_eq!(
        report["steps"],
        json!([
            "opened",
            "diagnostics",
            "plan",
            "restarted",
            "settings",
            "inserted",
            "written"
        ]),
        "{}",
        context()
    );
    eprintln!("nvim scenario ({version}) took {took:?}");

    // One client, rooted at the file's directory (no compile_commands.json, .omplens.toml
    // or .git above a temporary directory), and it is omplens.
    let root = report["client"]["root"].as_str().unwrap_or("");
    assert_eq!(
        Path::new(root).canonicalize().ok(),
        s.dir.path().canonicalize().ok(),
        "{}",
        context()
    );
    assert_eq!(
        report["client"]["server"]["name"],
        "omplens",
        "{}",
        context()
    );
    // The diagnostic of the implicit copies in the time loop, at the first kernel (line 17).
    let before = &report["diagnostics_before"];
    assert!(
        before
            .as_array()
            .is_some_and(|a| a.iter().any(|d| d["code"] == "OMP209" && d["line"] == 17)),
        "{}",
        context()
    );
    // The plan names the region it will insert.
    let plan = report["plan"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    assert!(
        plan.contains("diffuse") && plan.contains("tofrom: t"),
        "the plan buffer: {plan}\n{}",
        context()
    );
    // The restart replaced the client: one client, a new id.
    assert_ne!(
        report["client_after_restart"]["id"],
        report["client"]["id"],
        "{}",
        context()
    );
    assert_eq!(report["clients_after_restart"], 1, "{}", context());
    // The command's answer, and no diagnostic left.
    assert_eq!(
        report["command"]["command"],
        "omplens.insertDataRegion.function",
        "{}",
        context()
    );
    assert_eq!(
        report["command"]["result"]["applied"],
        true,
        "{}",
        context()
    );
    assert_eq!(
        report["file_command"]["result"],
        json!({"applied": false, "reason": "nothing to insert"}),
        "{}",
        context()
    );
    assert_eq!(report["changed_by_file_command"], false, "{}", context());
    assert!(
        !codes(&report["diagnostics_after"]).contains(&"OMP209".to_string()),
        "{}",
        context()
    );
    assert_eq!(report["modified_after_write"], false, "{}", context());
    // Nothing went wrong on the way: no error, warning or deprecation message (this also
    // catches a server that exits badly on :OmplensRestart).
    let messages = report["messages"].as_str().unwrap_or("");
    for bad in ["rror", "deprecated", "quit with", "WARN"] {
        assert!(
            !messages.contains(bad),
            "messages:\n{messages}\n{}",
            context()
        );
    }
    // The user command told the user.
    assert!(
        messages.contains("omplens: data mappings inserted"),
        "messages:\n{messages}\n{}",
        context()
    );

    // The file Neovim wrote: the region is there, the rest of the program is unchanged.
    let written = std::fs::read_to_string(&s.file).unwrap();
    assert_ne!(written, original, "the file was not changed; {}", context());
    assert!(
        written.contains("#pragma omp target data map("),
        "{written}\n{}",
        context()
    );
    let removed: Vec<&str> = original
        .lines()
        .filter(|l| !written.lines().any(|w| w == *l))
        .collect();
    assert!(removed.is_empty(), "lines lost: {removed:?}\n{written}");

    // The oracle: the written program computes the reference result, with fewer copies.
    let v = oracle::check(&s.file, &[]).expect("oracle on the written program");
    assert!(v.is_correct(), "{}\n{written}", v.summary());
    let before = oracle::run_offload(&repo().join(PROGRAM), &[]).expect("oracle on the original");
    assert!(
        v.offload.total_copies() < before.total_copies(),
        "copies: {} after, {} before",
        v.offload.total_copies(),
        before.total_copies()
    );
    eprintln!(
        "copies: {} before, {} after the plugin's edit",
        before.total_copies(),
        v.offload.total_copies()
    );
}

/// `s` as one word for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Kills the tmux server of the test (and the Neovim in it) however the test ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        // Its own server and no user configuration.
        c.args(["-L", &self.socket, "-f", "/dev/null"]);
        c.stdin(Stdio::null());
        c
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        let mut c = self.cmd();
        c.args(args);
        let done = run_with_timeout(c, Duration::from_secs(20)).expect("run tmux");
        let status = done.status.unwrap_or_else(|| panic!("tmux {args:?} hung"));
        std::process::Output {
            status,
            stdout: done.stdout.into_bytes(),
            stderr: done.stderr.into_bytes(),
        }
    }

    fn capture(&self) -> String {
        let out = self.run(&["capture-pane", "-p", "-t", "e2e"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn alive(&self) -> bool {
        self.run(&["has-session", "-t", "e2e"]).status.success()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self
            .cmd()
            .arg("kill-server")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

#[test]
fn tmux_screen_shows_diagnostic_and_hover() {
    let test = "neovim_e2e::tmux_screen_shows_diagnostic_and_hover";
    if !(tier::slow(test)
        && has_nvim(test)
        && tier::require(
            test,
            "tmux",
            tier::runs("tmux", &["-V"]),
            "scripts/install-editor-deps.sh",
        ))
    {
        return;
    }
    let version = nvim_version();
    let s = Setup::new("capture");

    // The command tmux runs: Neovim in the pane, its stderr in a file.
    let mut script = String::from("#!/bin/sh\n");
    for (k, v) in s.env() {
        script.push_str(&format!("export {k}={}\n", sh_quote(&v)));
    }
    script.push_str(&format!(
        "cd {} && exec nvim --clean -u {} {} 2>{}\n",
        sh_quote(&s.dir.path().display().to_string()),
        sh_quote(&s.init().display().to_string()),
        sh_quote(&s.file.display().to_string()),
        sh_quote(&s.dir.path().join("nvim.err").display().to_string()),
    ));
    let run = s.dir.path().join("run.sh");
    std::fs::write(&run, script).unwrap();

    let tmux = Tmux {
        socket: format!(
            "omplens-e2e-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ),
    };
    let started = Instant::now();
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "e2e",
        "-x",
        "100",
        "-y",
        "30",
        "sh",
        &run.display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "tmux new-session: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let context = |screen: &str| {
        format!(
            "{version}\nreport: {:#?}\nscreen:\n{screen}\nnvim stderr:\n{}\nLSP log (tail):\n{}",
            s.report(),
            std::fs::read_to_string(s.dir.path().join("nvim.err")).unwrap_or_default(),
            s.lsp_log()
        )
    };
    // The driver writes its report once the hover is shown (or it gave up).
    let deadline = Instant::now() + NVIM_LIMIT;
    let report = loop {
        if let Some(r) = s.report() {
            break r;
        }
        if Instant::now() > deadline || !tmux.alive() {
            let screen = if tmux.alive() {
                tmux.capture()
            } else {
                String::new()
            };
            panic!(
                "no report from nvim after {:?}; {}",
                started.elapsed(),
                context(&screen)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(report["error"].is_null(), "{}", context(&tmux.capture()));
    let hover: Vec<String> = report["hover"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        hover
            .iter()
            .any(|l| l.contains("Copies to the device on entry")),
        "hover: {hover:#?}"
    );

    // The screen catches up with the last redraw: poll until it shows the virtual text and
    // the hover, for at most 10 s.
    let wanted_diag = "OMP209: the kernels of `diffuse`";
    let wanted_hover = ["Copies to the device on entry", "Per execution"];
    let shows = |screen: &str| {
        screen.contains(wanted_diag) && wanted_hover.iter().all(|w| screen.contains(w))
    };
    let until = Instant::now() + Duration::from_secs(10);
    let mut screen = tmux.capture();
    while !shows(&screen) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
        screen = tmux.capture();
    }
    let took = started.elapsed();
    let path = target_dir().join("neovim-capture.txt");
    std::fs::write(&path, &screen).expect("write the capture");
    eprintln!(
        "capture ({version}) after {took:?}, written to {}:\n{screen}",
        path.display()
    );
    assert!(
        screen.contains(wanted_diag),
        "no diagnostic virtual text on screen; {}",
        context(&screen)
    );
    for w in wanted_hover {
        assert!(
            screen.contains(w),
            "no `{w}` (hover) on screen; {}",
            context(&screen)
        );
    }
    assert_eq!(
        screen.lines().count(),
        30,
        "the pane is not 30 rows: {screen}"
    );

    // Quit Neovim; the guard kills the tmux server whatever happens.
    tmux.run(&["send-keys", "-t", "e2e", "Escape", ":qa!", "Enter"]);
    let until = Instant::now() + Duration::from_secs(10);
    while tmux.alive() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
}
