//! The two test tiers, the one policy for missing tools and the one update switch.
//!
//! - **Fast tier** (plain `cargo test --workspace`): unit tests and the data-driven tests that
//!   need libclang, nothing else.
//! - **Slow tier** (`OMPLENS_SLOW=1`): the host-offload oracle (clang-19 and libomptarget),
//!   Neovim in tmux, the large-file LSP tests. A slow test starts with
//!
//!   ```ignore
//!   if !omplens_tests::tier::slow("oracle_fix::fixed_programs_pass_the_oracle") {
//!       return;
//!   }
//!   ```
//!
//!   and without `OMPLENS_SLOW=1` returns at once, writing `skipped: slow tier (set
//!   OMPLENS_SLOW=1)` to stderr past the test harness's capture, so the note shows in
//!   `cargo test`'s output. When `CI` is set and `OMPLENS_SLOW` is not, the gate fails the test
//!   instead: CI must not count a skipped test as a pass (`scripts/test.sh` sets
//!   `OMPLENS_SLOW=1`; `OMPLENS_SLOW=0` skips the slow tier on purpose).
//! - **Missing tools** (clang-19 and libomptarget, nvim, tmux, node): when `CI` is set or
//!   `OMPLENS_SLOW=1`, a test whose tool is missing fails; otherwise it is skipped with a
//!   visible note. See [`require`], `oracle::gate` and [`command`].
//! - **Updating expectations**: `UPDATE_EXPECT=1` rewrites every kind of snapshot and
//!   expectation file (IR listings, `.expect` files, fixed programs) instead of comparing with
//!   it ([`updating`]).

use std::io::Write as _;
use std::process::{Command, Stdio};

/// Set to 1 to run the slow tier.
pub const SLOW_ENV: &str = "OMPLENS_SLOW";
/// Set to 1 to rewrite snapshots and expectation files instead of comparing with them.
pub const UPDATE_ENV: &str = "UPDATE_EXPECT";

/// `None` when the variable is unset or empty, `Some(false)` when it is `0`, `false`, `no`
/// or `off`, `Some(true)` for anything else.
fn flag(name: &str) -> Option<bool> {
    let v = std::env::var(name).ok()?;
    let v = v.trim().to_ascii_lowercase();
    if v.is_empty() {
        return None;
    }
    Some(!matches!(v.as_str(), "0" | "false" | "no" | "off"))
}

/// `OMPLENS_SLOW=1`: the slow tier runs.
pub fn slow_enabled() -> bool {
    flag(SLOW_ENV) == Some(true)
}

/// `CI` is set (to anything but `0`/`false`).
pub fn ci() -> bool {
    flag("CI") == Some(true)
}

/// Missing tools fail tests instead of skipping them: in CI and in the slow tier.
pub fn strict() -> bool {
    ci() || slow_enabled()
}

/// `UPDATE_EXPECT=1`: rewrite snapshots and expectations instead of comparing with them.
pub fn updating() -> bool {
    flag(UPDATE_ENV) == Some(true)
}

/// A note for the person running the tests, written to the process's stderr directly: the
/// test harness captures `eprintln!` of passing tests, not writes to the handle. One write,
/// so that the harness's own output does not tear the line.
pub fn note(test: &str, what: &str) {
    let line = format!("note: {test}: {what}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// What the slow-tier gate does for a given environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    Run,
    Skip,
    /// `CI` is set, `OMPLENS_SLOW` is not: skipping would pass silently.
    Fail,
}

fn gate(slow: Option<bool>, ci: bool) -> Gate {
    match (slow, ci) {
        (Some(true), _) => Gate::Run,
        (Some(false), _) | (None, false) => Gate::Skip,
        (None, true) => Gate::Fail,
    }
}

/// The gate of a slow-tier test: `true` when it runs. `false` after writing the note
/// `skipped: slow tier (set OMPLENS_SLOW=1)`; panics when `CI` is set and `OMPLENS_SLOW` is not.
pub fn slow(test: &str) -> bool {
    match gate(flag(SLOW_ENV), ci()) {
        Gate::Run => true,
        Gate::Skip => {
            note(test, &format!("skipped: slow tier (set {SLOW_ENV}=1)"));
            false
        }
        Gate::Fail => panic!(
            "{test} is in the slow tier and CI is set, but {SLOW_ENV} is not: the test would \
             pass without running. Set {SLOW_ENV}=1 (scripts/test.sh does), or {SLOW_ENV}=0 to \
             leave the slow tier out on purpose."
        ),
    }
}

/// The one policy for a missing tool. `present`: whether `tool` is installed; `install`:
/// how to install it. `true` when present; otherwise fails the test when [`strict`], and
/// returns `false` after a visible note when not.
pub fn require(test: &str, tool: &str, present: bool, install: &str) -> bool {
    if present {
        return true;
    }
    let why = format!("{tool} is missing ({install} installs it)");
    if strict() {
        panic!(
            "{test}: {why}; with CI or {SLOW_ENV}=1 set a missing tool fails the test instead of \
             skipping it"
        );
    }
    note(test, &format!("skipped: {why}"));
    false
}

/// Whether `program ARGS` runs and exits 0 (e.g. `nvim --version`).
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// [`require`] for a command-line tool, present when `program --version` succeeds (tmux
/// spells it `-V`: use [`require`] with [`runs`] for such tools).
pub fn command(test: &str, program: &str, install: &str) -> bool {
    require(test, program, runs(program, &["--version"]), install)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_runs_skips_or_fails() {
        assert_eq!(gate(Some(true), false), Gate::Run);
        assert_eq!(gate(Some(true), true), Gate::Run);
        assert_eq!(gate(None, false), Gate::Skip);
        assert_eq!(gate(Some(false), false), Gate::Skip);
        // OMPLENS_SLOW=0 in CI: left out on purpose, not by accident.
        assert_eq!(gate(Some(false), true), Gate::Skip);
        assert_eq!(gate(None, true), Gate::Fail);
    }

    #[test]
    fn a_present_tool_is_required_without_a_note() {
        assert!(require("t", "sh", true, "nothing"));
        assert!(runs("sh", &["-c", "exit 0"]));
        assert!(!runs("sh", &["-c", "exit 3"]));
        assert!(!runs("/nonexistent/omplens-no-such-tool", &[]));
    }
}
