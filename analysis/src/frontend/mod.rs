//! libclang → IR. The only module that touches clang-sys.
//!
//! The front end never fails on bad code: a file libclang cannot parse well yields a partial
//! module plus diagnostics. It fails only when there is nothing to analyse at all (libclang
//! missing, file unreadable, libclang refusing the arguments).

pub mod flags;
mod header_decls;
pub mod includers;
mod kept;
// The one module allowed `unsafe` (the crate denies it): the safe cursor API over clang-sys.
#[allow(non_upper_case_globals)]
#[allow(unsafe_code)]
mod libclang;
#[allow(non_upper_case_globals)]
mod lower;
mod macros;
mod openmp_text;
mod references;
mod shared_headers;
mod source;
#[cfg(test)]
mod test_corpus;
mod tu_cache;

use crate::ir::{Diagnostic, DirId, DirectiveInfo, Language, MacroText, Module, Severity, Span};
use crate::pragma;
use std::path::Path;
use std::sync::Arc;

pub use flags::{CompileFlags, FlagsOrigin};
pub use openmp_text::may_hold_openmp;
pub use shared_headers::{SharedHeaders, SharedStats};
pub use tu_cache::{TuCache, TuStats};

#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    #[error("{0}")]
    Libclang(String),
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("libclang could not parse {path}: {why}. Check the compile flags ({flags})")]
    Parse {
        path: String,
        why: String,
        flags: String,
    },
}

/// Loads libclang on this thread; an error says how to install it.
pub fn ensure_libclang() -> Result<(), FrontendError> {
    libclang::ensure_loaded().map_err(FrontendError::Libclang)
}

/// Ends the process with `code` without running LLVM's static destructors (libclang threads
/// may still be at work): see [`libclang::exit_process`].
pub fn exit_process(code: i32) -> ! {
    libclang::exit_process(code)
}

/// The directory `main` should set as `LIBCLANG_PATH` before it starts any thread, when the
/// user set none (Debian's libclang 19, if installed). The library itself never sets it.
pub fn default_libclang_path() -> Option<&'static str> {
    libclang::default_libclang_path()
}

/// The version string of the libclang in use.
pub fn libclang_version() -> Result<String, FrontendError> {
    ensure_libclang()?;
    Ok(libclang::version())
}

/// `NAME` in omplens's disk cache: `$OMPLENS_CACHE_DIR`, else `$XDG_CACHE_HOME/omplens`, else
/// `~/.cache/omplens` (not made here).
pub fn cache_dir(name: &str) -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let base = match std::env::var_os("OMPLENS_CACHE_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match std::env::var_os("XDG_CACHE_HOME") {
            Some(d) if !d.is_empty() => PathBuf::from(d).join("omplens"),
            _ => PathBuf::from(std::env::var_os("HOME")?)
                .join(".cache")
                .join("omplens"),
        },
    };
    Some(base.join(name))
}

/// Extensions of the C and C++ sources `omplens check` finds in a directory.
pub const SOURCE_EXTENSIONS: &[&str] = &["c", "cc", "cpp", "cxx"];
/// Extensions of C and C++ headers.
const HEADER_EXTENSIONS: &[&str] = &["h", "hh", "hpp", "hxx", "inc"];

/// Whether `path` names a C or C++ source or header (by its extension).
pub fn is_c_family_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e) || HEADER_EXTENSIONS.contains(&e))
}

/// Lowers `path` (or `contents`, an unsaved buffer for it) compiled with `args`.
pub fn lower_file(
    path: &Path,
    contents: Option<&str>,
    args: &[String],
) -> Result<Module, FrontendError> {
    lower_file_shared(None, path, contents, args)
}

/// [`lower_file`], parsing after the system headers `shared` precompiled for the file's
/// leading `#include` lines when it has them (the same module, sooner).
pub fn lower_file_shared(
    shared: Option<&SharedHeaders>,
    path: &Path,
    contents: Option<&str>,
    args: &[String],
) -> Result<Module, FrontendError> {
    ensure_libclang()?;
    let path_str = path.display().to_string();
    let text = match contents {
        Some(c) => c.to_string(),
        None => std::fs::read(path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|source| FrontendError::Read {
                path: path_str.clone(),
                source,
            })?,
    };
    match shared {
        // (The text is copied only when the file is lowered here.)
        Some(s) => s.kept.lower_for_check(path, &text, args, || {
            lower_unkept(shared, path, &path_str, contents, text.clone(), args)
        }),
        None => lower_unkept(shared, path, &path_str, contents, text, args),
    }
}

/// [`lower_file_shared`] of `path`'s `text` for another file's sake (`project`: what the
/// functions it defines do, the stores it shows): with a run's `shared` headers, the module
/// is kept for the file's own check ([`kept`]).
pub fn lower_file_for_project(
    shared: Option<&SharedHeaders>,
    path: &Path,
    text: &str,
    args: &[String],
) -> Result<Arc<Module>, FrontendError> {
    ensure_libclang()?;
    let path_str = path.display().to_string();
    let lower = || lower_unkept(shared, path, &path_str, Some(text), text.to_string(), args);
    match shared {
        Some(s) => s.kept.lower_for_project(path, text, args, lower),
        None => lower().map(Arc::new),
    }
}

/// The parse (after the run's shared headers when one fits) and lowering of `text`.
fn lower_unkept(
    shared: Option<&SharedHeaders>,
    path: &Path,
    path_str: &str,
    contents: Option<&str>,
    text: String,
    args: &[String],
) -> Result<Module, FrontendError> {
    let after_pch = shared.and_then(|s| {
        let pch = s.pch_for(path, &text, args)?;
        let tu = parse_after_usable_pch(path_str, args, contents, pch);
        if tu.is_none() {
            s.fell_back(pch);
        }
        tu
    });
    let tu = match after_pch {
        Some(tu) => tu,
        None => libclang::parse(path_str, args, contents)
            .map_err(|why| parse_error(path_str, args, why))?,
    };
    Ok(lower_parsed(&tu, path, path_str, text, args))
}

/// [`lower_file`] of an editor buffer through `cache`: the file's translation unit is kept
/// and reparsed (with a precompiled preamble) when the next text comes. The module is the
/// one a fresh parse gives.
pub fn lower_file_cached(
    cache: &TuCache,
    path: &Path,
    contents: &str,
    args: &[String],
) -> Result<Module, FrontendError> {
    ensure_libclang()?;
    let path_str = path.display().to_string();
    cache
        .with_tu(&path_str, args, contents, |tu, walk| {
            lower_walk(tu, path, &path_str, contents.to_string(), args, walk)
        })
        .map_err(|why| parse_error(&path_str, args, why))
}

fn parse_error(path: &str, args: &[String], why: String) -> FrontendError {
    FrontendError::Parse {
        path: path.to_string(),
        why,
        flags: if args.is_empty() {
            "none".to_string()
        } else {
            args.join(" ")
        },
    }
}

/// Lowers a parsed translation unit whose main file `path` has the text `text`.
fn lower_parsed(
    tu: &libclang::TranslationUnit,
    path: &Path,
    path_str: &str,
    text: String,
    args: &[String],
) -> Module {
    lower_walk(tu, path, path_str, text, args, Walk::Whole).0
}

/// How a lowering walks the unit's project headers (see [`header_decls`]).
#[derive(Clone, Copy)]
pub(super) enum Walk<'r> {
    /// The unit's walk meets every declaration.
    Whole,
    /// As `Whole`, recording the project headers' declarations for later units.
    Record,
    /// The unit's walk meets only local declarations: these project headers' declarations
    /// are lowered first.
    Replay(&'r header_decls::HeaderDecls),
}

/// What a lowering did with the project headers' declarations.
pub(super) enum Walked {
    /// Nothing to say (`Walk::Whole`, or a record could not be made).
    Nothing,
    Recorded(header_decls::HeaderDecls),
    /// The record did not describe the unit: the module is not to be used.
    ReplayFailed,
}

/// [`lower_parsed`], walking the headers as `walk` says.
fn lower_walk(
    tu: &libclang::TranslationUnit,
    path: &Path,
    path_str: &str,
    text: String,
    args: &[String],
    walk: Walk<'_>,
) -> (Module, Walked) {
    let src = source::SourceText::new(text);
    let mut module = Module {
        path: path_str.to_string(),
        language: Some(language_of(path, args)),
        source_len: src.text.len() as u32,
        lines: crate::text::LineIndex::new(&src.text),
        ..Module::default()
    };
    let _main = libclang::MainFileGuard::new(tu, path_str);
    let skipped = libclang::skipped_ranges(tu, path_str);
    // The macro definitions a walk of the whole unit meets; for a unit that walks only its
    // local declarations, the record's before its own (see `header_decls`).
    // One walk of the top level serves the macros and the lowering (it is long: every
    // preprocessing entity of the main file comes up in it).
    let top = tu.cursor().children();
    let definitions = macros::definitions(&top);
    let definitions = match walk {
        Walk::Replay(h) => h.macros_before(definitions),
        _ => Some(definitions),
    };
    let Some(definitions) = definitions else {
        return (module, Walked::ReplayFailed);
    };
    let defs = macros::Macros::of_definitions(&definitions, path_str, &src.text);
    let offsets = collect_directives(&src, &skipped, &mut module, &defs);
    let main_dir = path
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(|d| d.display().to_string()))
        .unwrap_or_default();
    clang_diagnostics(tu, &main_dir, &mut module);
    let mut lowerer = lower::Lowerer::new(&src, module, offsets, &defs);
    lowerer.lower_tu(
        tu,
        top,
        match walk {
            Walk::Replay(h) => Some(&h.decls),
            _ => None,
        },
    );
    let walked = match walk {
        Walk::Whole => Walked::Nothing,
        Walk::Record => match lowerer.header_record() {
            Some((decls, first_main)) => {
                let end = first_main.map_or(src.text.len(), |o| o as usize);
                match src.text.get(..end) {
                    Some(prefix) => Walked::Recorded(header_decls::HeaderDecls::new(
                        prefix,
                        tu.included_files(),
                        decls,
                        definitions,
                    )),
                    None => Walked::Nothing,
                }
            }
            None => Walked::Nothing,
        },
        Walk::Replay(_) if lowerer.replay_failed() => Walked::ReplayFailed,
        Walk::Replay(_) => Walked::Nothing,
    };
    let mut module = lowerer.finish();
    if let Some(span) = module.unified_shared_memory() {
        module.diagnostics.push(Diagnostic {
            severity: Severity::Note,
            span: Some(span),
            message: USM_NOTE.into(),
            source: "omplens",
        });
    }
    module
        .diagnostics
        .sort_by_key(|d| (d.span.map(|s| s.start), d.severity));
    (module, walked)
}

/// What `check` says of a file that requires unified shared memory, where it judges no data
/// mapping (and `fix` writes none).
pub const USM_NOTE: &str = "`requires unified_shared_memory`: host and device share memory, \
     so whether a map copies is the implementation's choice; omplens does not judge this file's \
     data mappings and `fix` writes none";

fn language_of(path: &Path, args: &[String]) -> Language {
    if let Some(i) = args.iter().position(|a| a == "-x") {
        if let Some(l) = args.get(i + 1) {
            return if l.starts_with("c++") {
                Language::Cxx
            } else {
                Language::C
            };
        }
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("c") | Some("h") => Language::C,
        _ => Language::Cxx,
    }
}

/// Finds and parses every OpenMP directive outside skipped preprocessor blocks, as the
/// compiler reads it after macro expansion (`#pragma omp` lines, their clauses written through
/// macros, `_Pragma` operators and the macros that make them), registering the directives in
/// the module. Returns (offset, id) of each, in source order.
fn collect_directives(
    src: &source::SourceText,
    skipped: &[(u32, u32)],
    module: &mut Module,
    defs: &macros::Macros,
) -> Vec<(u32, DirId)> {
    let in_skipped = |o: u32| skipped.iter().any(|&(s, e)| o >= s && o < e);
    let mut found: Vec<(u32, pragma::PragmaParse)> = Vec::new();
    for raw in pragma::scan_pragmas(&src.text) {
        if in_skipped(raw.span.start) {
            continue;
        }
        let base = raw.span.start;
        let parsed = match defs.expand_pragma_line(&raw.text, base) {
            Some(e) => {
                let shift = |s: Span| {
                    let o = e.original(s);
                    Span {
                        start: o.start + base,
                        end: o.end + base,
                    }
                };
                for (a, b) in e.macro_uses() {
                    module.macro_text.push(MacroText {
                        span: Span {
                            start: a + base,
                            end: b + base,
                        },
                        whole: false,
                    });
                }
                remapped(pragma::parse_pragma(&e.text, 0), &shift)
            }
            None => pragma::parse_pragma(&raw.text, base),
        };
        found.push((base, parsed));
    }
    let names = defs.pragma_macros();
    let mut consumed = 0u32;
    for at in macros::uses(&src.text, &names) {
        if at < consumed || in_skipped(at) {
            continue;
        }
        let rest = &src.text[at as usize..];
        let (len, texts, inner) = match macros::operator_at(rest) {
            Some((len, text, inner)) => (len, vec![text], inner),
            None => match defs.pragma_use(rest, at) {
                Ok((len, texts)) => (len, texts, None),
                Err(len) => {
                    let name_end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    consumed = at + len as u32;
                    module.diagnostics.push(Diagnostic {
                        severity: Severity::Warning,
                        span: Some(Span {
                            start: at,
                            end: at + name_end as u32,
                        }),
                        message: if len == 0 {
                            format!(
                                "macro `{}` could not be expanded, so the OpenMP directive it \
                                 may make is not analysed",
                                &rest[..name_end]
                            )
                        } else {
                            format!(
                                "the OpenMP directive that macro `{}` makes together with the \
                                 statement it governs is not analysed (omplens places \
                                 directives written before a statement); write the directive \
                                 before the macro's use",
                                &rest[..name_end]
                            )
                        },
                        source: "omplens",
                    });
                    continue;
                }
            },
        };
        consumed = at + len as u32;
        let span = Span {
            start: at,
            end: consumed,
        };
        let omp: Vec<&String> = texts
            .iter()
            .filter(|t| {
                let t = t.trim_start();
                t.starts_with("omp") && !t[3..].starts_with(|c: char| c.is_alphanumeric())
            })
            .collect();
        if omp.is_empty() {
            continue;
        }
        module.macro_text.push(MacroText { span, whole: true });
        for text in omp {
            const PREFIX: &str = "#pragma ";
            let plain = inner.filter(|_| texts.len() == 1);
            let place = |s: Span| match plain {
                // `_Pragma("...")` written out: positions inside its literal.
                Some(k) if s.start >= PREFIX.len() as u32 => Span {
                    start: at + k as u32 + s.start - PREFIX.len() as u32,
                    end: (at + k as u32 + s.end - PREFIX.len() as u32).min(span.end),
                },
                _ => span,
            };
            let mut parsed = remapped(pragma::parse_pragma(&format!("{PREFIX}{text}"), 0), &place);
            if let Some(d) = &mut parsed.directive {
                d.span = span;
            }
            found.push((at, parsed));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut out = Vec::new();
    for (at, parsed) in found {
        for d in parsed.diagnostics {
            module.diagnostics.push(Diagnostic {
                severity: match d.severity {
                    pragma::Severity::Error => Severity::Error,
                    pragma::Severity::Warning => Severity::Warning,
                },
                span: Some(d.span),
                message: d.message,
                source: "pragma",
            });
        }
        if let Some(directive) = parsed.directive {
            let id = module.directives.push(DirectiveInfo {
                directive,
                function: None,
                governs: None,
                bindings: Vec::new(),
                origin: None,
            });
            out.push((at, id));
        }
    }
    out
}

/// A parse of expanded text with its spans moved to where the text is written.
fn remapped(mut p: pragma::PragmaParse, f: &dyn Fn(Span) -> Span) -> pragma::PragmaParse {
    if let Some(d) = &mut p.directive {
        d.map_spans(f);
    }
    for d in &mut p.diagnostics {
        d.span = f(d.span);
    }
    p
}

#[allow(non_upper_case_globals)]
fn clang_diagnostics(tu: &libclang::TranslationUnit, main_dir: &str, module: &mut Module) {
    use clang_sys::*;
    for d in libclang::diagnostics(tu) {
        if is_omp_h_variant_artifact(&d) {
            continue;
        }
        let severity = match d.severity {
            CXDiagnostic_Error | CXDiagnostic_Fatal => Severity::Error,
            CXDiagnostic_Warning => Severity::Warning,
            _ => continue,
        };
        let (span, message) = match d.offset {
            Some(o) => (Some(Span { start: o, end: o }), d.message),
            None => {
                // Headers next to the file are named relative to it (stable across machines).
                let loc = d
                    .location
                    .strip_prefix(main_dir)
                    .filter(|_| !main_dir.is_empty())
                    .map(|l| l.trim_start_matches('/'))
                    .unwrap_or(&d.location);
                let message = if loc.is_empty() {
                    d.message
                } else {
                    format!("{loc}: {}", d.message)
                };
                (None, message)
            }
        };
        module.diagnostics.push(Diagnostic {
            severity,
            span,
            message,
            source: "clang",
        });
    }
}

/// A diagnostic about the precompiled headers themselves (stale, made with other options):
/// the parse is then done again without them.
/// A parse of `path` (`contents`) after the PCH `pch`; None when it fails or clang reports a
/// problem with the PCH (the caller parses without it).
fn parse_after_usable_pch(
    path: &str,
    args: &[String],
    contents: Option<&str>,
    pch: &Path,
) -> Option<libclang::TranslationUnit> {
    libclang::parse_after_pch(path, args, contents, &pch.display().to_string())
        .ok()
        .filter(|tu| !libclang::diagnostics(tu).iter().any(is_pch_problem))
}

fn is_pch_problem(d: &libclang::ClangDiagnostic) -> bool {
    d.offset.is_none() && (d.message.contains("PCH") || d.message.contains("precompiled header"))
}

/// omp.h declares `omp_is_initial_device` twice inside `begin declare variant` blocks; parsed
/// without `-fopenmp` (as omplens must) that reads as a redeclaration. It is an artifact of how
/// omplens parses, not a problem in the user's code.
fn is_omp_h_variant_artifact(d: &libclang::ClangDiagnostic) -> bool {
    d.offset.is_none()
        && d.location.contains("/omp.h:")
        && d.message.contains("'omp_is_initial_device'")
}

/// The errors clang reports for `contents` (the text of `path`) compiled with OpenMP
/// semantics on: `args` as the front end uses them (see [`flags`]), with `-fopenmp` instead
/// of the `_OPENMP` definition. omplens's own parse keeps OpenMP off (its directive bodies
/// would be hidden), so this is how a rewrite's directives and clauses are checked by the
/// compiler itself: `(offset in the main file, message)` for each error.
pub fn openmp_errors(
    path: &Path,
    contents: &str,
    args: &[String],
) -> Result<Vec<(Option<u32>, String)>, FrontendError> {
    ensure_libclang()?;
    let path_str = path.display().to_string();
    let mut with_openmp: Vec<String> = args
        .iter()
        .filter(|a| *a != flags::OPENMP_MACRO && *a != "-Wno-source-uses-openmp")
        .cloned()
        .collect();
    with_openmp.push("-fopenmp".to_string());
    let tu = libclang::parse_with(&path_str, &with_openmp, Some(contents), false)
        .map_err(|why| parse_error(&path_str, &with_openmp, why))?;
    Ok(libclang::diagnostics(&tu)
        .into_iter()
        .filter(|d| {
            d.severity == clang_sys::CXDiagnostic_Error
                || d.severity == clang_sys::CXDiagnostic_Fatal
        })
        .map(|d| {
            let message = if d.offset.is_some() || d.location.is_empty() {
                d.message
            } else {
                format!("{}: {}", d.location, d.message)
            };
            (d.offset, message)
        })
        .collect())
}

/// For a slow-tier test of the crate that needs libclang: whether it runs (see `tier.rs`: it
/// is skipped with a note outside the slow tier, and a missing libclang fails in CI).
#[cfg(test)]
pub(crate) fn slow_test_with_libclang(test: &str) -> bool {
    crate::tier::slow(test)
        && crate::tier::require(
            test,
            "libclang",
            ensure_libclang().is_ok(),
            "scripts/bootstrap.sh",
        )
}
