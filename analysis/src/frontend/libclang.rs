//! Thin safe wrappers over the clang-sys calls the front end uses. This file and `lower.rs`
//! are the only places that touch clang-sys.
//!
//! libclang is loaded at run time, so that a machine without it gets a clear message instead
//! of a dynamic-linker failure. clang-sys keeps the loaded library per thread; every entry
//! point calls [`ensure_loaded`] on its own thread, which shares one loaded copy.

use clang_sys::*;
use std::ffi::{CStr, CString};
use std::os::raw::{c_uint, c_void};
use std::sync::{Arc, OnceLock};

/// Where Debian's `libclang-19-dev` puts the library.
const DEFAULT_LIBCLANG_DIR: &str = "/usr/lib/llvm-19/lib";
/// `clang_getCursorBinaryOperatorKind` and friends appeared in libclang 17.
const MIN_MAJOR: u32 = 17;

static LIBRARY: OnceLock<Result<Arc<SharedLibrary>, String>> = OnceLock::new();

/// Loads libclang (once per process) and makes it usable on the calling thread.
pub fn ensure_loaded() -> Result<(), String> {
    if clang_sys::is_loaded() {
        return Ok(());
    }
    let lib = LIBRARY.get_or_init(|| {
        if std::env::var_os("LIBCLANG_PATH").is_none()
            && std::path::Path::new(DEFAULT_LIBCLANG_DIR).is_dir()
        {
            // Only read by clang-sys's search below; set once, before any parse runs.
            std::env::set_var("LIBCLANG_PATH", DEFAULT_LIBCLANG_DIR);
        }
        let lib = clang_sys::load_manually().map_err(|e| {
            format!(
                "libclang could not be loaded ({e}).\n\
                 omplens needs libclang {MIN_MAJOR} or newer: on Debian or Ubuntu run \
                 `apt-get install libclang-19-dev`, or set LIBCLANG_PATH to the directory \
                 that holds libclang.so"
            )
        })?;
        Ok(Arc::new(lib))
    });
    match lib {
        Ok(l) => {
            clang_sys::set_library(Some(l.clone()));
            check_version()
        }
        Err(e) => Err(e.clone()),
    }
}

fn check_version() -> Result<(), String> {
    if !clang_getCursorBinaryOperatorKind::is_loaded() {
        let v = version();
        return Err(format!(
            "the libclang found ({v}) is too old: omplens needs libclang {MIN_MAJOR} or newer \
             (apt-get install libclang-19-dev, or set LIBCLANG_PATH)"
        ));
    }
    Ok(())
}

/// `clang_getClangVersion`, e.g. "Debian clang version 19.1.7".
pub fn version() -> String {
    unsafe { take_string(clang_getClangVersion()) }
}

/// Converts and disposes a CXString.
pub fn take_string(s: CXString) -> String {
    unsafe {
        let p = clang_getCString(s);
        let out = if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        };
        clang_disposeString(s);
        out
    }
}

pub struct Index(CXIndex);

impl Index {
    pub fn new() -> Index {
        // exclude declarations from PCH: 0; display diagnostics on stderr: 0.
        Index(unsafe { clang_createIndex(0, 0) })
    }
}

impl Drop for Index {
    fn drop(&mut self) {
        // A kept unit may be dropped on a thread that never parsed (a closed file's, on
        // another worker): clang-sys needs the library loaded on the calling thread.
        if ensure_loaded().is_ok() {
            unsafe { clang_disposeIndex(self.0) }
        }
    }
}

pub struct TranslationUnit {
    pub tu: CXTranslationUnit,
    // Keeps the index alive as long as the translation unit.
    _index: Index,
}

// SAFETY: a libclang translation unit (and its index) may be used from any thread as long as
// no two threads use it at once; the TU cache keeps each behind a mutex, and a fresh parse
// is owned by the one thread lowering it.
unsafe impl Send for TranslationUnit {}

impl Drop for TranslationUnit {
    fn drop(&mut self) {
        // See `Index::drop`: the thread may not have loaded libclang yet.
        if ensure_loaded().is_ok() {
            unsafe { clang_disposeTranslationUnit(self.tu) }
        }
    }
}

/// Parses `path` with `args`. `contents`, when given, replaces the file on disk (an editor
/// buffer). Returns the libclang error code as text on failure.
pub fn parse(
    path: &str,
    args: &[String],
    contents: Option<&str>,
) -> Result<TranslationUnit, String> {
    parse_with(path, args, contents, false)
}

/// The NUL-terminated forms of an unsaved buffer for `path`; libclang copies the contents
/// during the call, so they only need to live that long.
struct Unsaved {
    path: CString,
    contents: Option<CString>,
}

impl Unsaved {
    fn new(path: &str, contents: Option<&str>) -> Result<Unsaved, String> {
        Ok(Unsaved {
            path: CString::new(path).map_err(|_| "file name contains a NUL byte".to_string())?,
            contents: contents.map(|c| CString::new(c.replace('\0', " ")).unwrap_or_default()),
        })
    }

    fn files(&self) -> Vec<CXUnsavedFile> {
        self.contents
            .iter()
            .map(|c| CXUnsavedFile {
                Filename: self.path.as_ptr(),
                Contents: c.as_ptr(),
                Length: c.as_bytes().len() as _,
            })
            .collect()
    }
}

/// [`parse`], optionally keeping a precompiled preamble (the leading `#include` block, built
/// on this first parse) so that [`TranslationUnit::reparse`] of a later text is cheap.
pub fn parse_with(
    path: &str,
    args: &[String],
    contents: Option<&str>,
    preamble: bool,
) -> Result<TranslationUnit, String> {
    let index = Index::new();
    let buffer = Unsaved::new(path, contents)?;
    let c_args: Vec<CString> = args
        .iter()
        .map(|a| CString::new(a.as_str()))
        .collect::<Result<_, _>>()
        .map_err(|_| "a compile flag contains a NUL byte".to_string())?;
    let arg_ptrs: Vec<*const i8> = c_args.iter().map(|a| a.as_ptr()).collect();
    let mut unsaved = buffer.files();
    // The detailed preprocessing record is what makes `clang_getSkippedRanges` report `#if 0`
    // blocks (pragmas inside them must be ignored). KeepGoing: analyse past fatal errors
    // such as a missing header.
    let mut options = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
    if preamble {
        options |=
            CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse;
    }
    let mut tu: CXTranslationUnit = std::ptr::null_mut();
    let code = unsafe {
        clang_parseTranslationUnit2(
            index.0,
            buffer.path.as_ptr(),
            arg_ptrs.as_ptr(),
            arg_ptrs.len() as i32,
            if unsaved.is_empty() {
                std::ptr::null_mut()
            } else {
                unsaved.as_mut_ptr()
            },
            unsaved.len() as c_uint,
            options,
            &mut tu,
        )
    };
    if code != CXError_Success || tu.is_null() {
        let why = match code {
            CXError_Crashed => "libclang crashed while parsing",
            CXError_InvalidArguments => "libclang rejected the arguments",
            CXError_ASTReadError => "libclang could not read the AST",
            _ => "libclang could not parse the file",
        };
        return Err(why.to_string());
    }
    Ok(TranslationUnit { tu, _index: index })
}

impl TranslationUnit {
    /// Parses the translation unit again with `contents` as the text of `path` (its main
    /// file), reusing the precompiled preamble when the leading `#include` block is unchanged.
    /// On an error the translation unit is no longer valid: the caller must drop it.
    pub fn reparse(&mut self, path: &str, contents: &str) -> Result<(), String> {
        let buffer = Unsaved::new(path, Some(contents))?;
        let mut unsaved = buffer.files();
        let code = unsafe {
            clang_reparseTranslationUnit(
                self.tu,
                unsaved.len() as c_uint,
                unsaved.as_mut_ptr(),
                clang_defaultReparseOptions(self.tu),
            )
        };
        if code != 0 {
            return Err(format!(
                "libclang could not reparse the file (error {code})"
            ));
        }
        Ok(())
    }
}

/// The children of a cursor, in order. The callback only pushes: nothing in it can unwind.
pub fn children(c: CXCursor) -> Vec<CXCursor> {
    extern "C" fn visit(c: CXCursor, _parent: CXCursor, data: CXClientData) -> CXChildVisitResult {
        // SAFETY: `data` is the Vec passed below, alive for the whole visit.
        let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
        out.push(c);
        CXChildVisit_Continue
    }
    let mut out: Vec<CXCursor> = Vec::new();
    unsafe {
        clang_visitChildren(c, visit, &mut out as *mut Vec<CXCursor> as *mut c_void);
    }
    out
}

pub fn kind(c: CXCursor) -> CXCursorKind {
    unsafe { clang_getCursorKind(c) }
}

pub fn spelling(c: CXCursor) -> String {
    unsafe { take_string(clang_getCursorSpelling(c)) }
}

pub fn is_null(c: CXCursor) -> bool {
    unsafe { clang_Cursor_isNull(c) != 0 }
}

thread_local! {
    /// The main file of the translation unit being lowered on this thread.
    static MAIN_FILE: std::cell::Cell<CXFile> = const { std::cell::Cell::new(std::ptr::null_mut()) };
}

/// Makes `path` of `tu` the main file for [`offset`] while the guard lives.
pub struct MainFileGuard(());

impl MainFileGuard {
    pub fn new(tu: &TranslationUnit, path: &str) -> MainFileGuard {
        let file = CString::new(path)
            .map(|p| unsafe { clang_getFile(tu.tu, p.as_ptr()) })
            .unwrap_or(std::ptr::null_mut());
        MAIN_FILE.with(|m| m.set(file));
        MainFileGuard(())
    }
}

impl Drop for MainFileGuard {
    fn drop(&mut self) {
        MAIN_FILE.with(|m| m.set(std::ptr::null_mut()));
    }
}

/// File offset of a location's expansion point (where a macro was used, for code that comes
/// from a macro), and whether that point is in the main file.
pub fn offset(loc: CXSourceLocation) -> (u32, bool) {
    let mut off: c_uint = 0;
    let mut file: CXFile = std::ptr::null_mut();
    unsafe {
        clang_getExpansionLocation(
            loc,
            &mut file,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut off,
        );
        let main = MAIN_FILE.with(|m| m.get());
        let in_main = if main.is_null() || file.is_null() {
            clang_Location_isFromMainFile(loc) != 0
        } else {
            clang_File_isEqual(file, main) != 0
        };
        (off, in_main)
    }
}

/// Extent of a cursor as main-file offsets, `None` if it does not start in the main file.
pub fn extent(c: CXCursor) -> Option<(u32, u32)> {
    unsafe {
        let r = clang_getCursorExtent(c);
        let (s, in_main) = offset(clang_getRangeStart(r));
        if !in_main {
            return None;
        }
        let (e, _) = offset(clang_getRangeEnd(r));
        Some((s, e.max(s)))
    }
}

/// Offset of the cursor's own location (e.g. a declarator's name), if in the main file.
pub fn location(c: CXCursor) -> Option<u32> {
    let (o, in_main) = offset(unsafe { clang_getCursorLocation(c) });
    in_main.then_some(o)
}

pub fn cursor_type(c: CXCursor) -> CXType {
    unsafe { clang_getCursorType(c) }
}

pub fn type_spelling(t: CXType) -> String {
    unsafe { take_string(clang_getTypeSpelling(t)) }
}

pub fn referenced(c: CXCursor) -> CXCursor {
    unsafe { clang_getCursorReferenced(c) }
}

pub fn canonical(c: CXCursor) -> CXCursor {
    unsafe { clang_getCanonicalCursor(c) }
}

/// The main file's skipped preprocessor ranges (`#if 0` blocks and the like), as offsets.
pub fn skipped_ranges(tu: &TranslationUnit, path: &str) -> Vec<(u32, u32)> {
    let Ok(c_path) = CString::new(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    unsafe {
        let file = clang_getFile(tu.tu, c_path.as_ptr());
        if file.is_null() {
            return out;
        }
        let list = clang_getSkippedRanges(tu.tu, file);
        if list.is_null() {
            return out;
        }
        let l = &*list;
        for i in 0..l.count as usize {
            let r = *l.ranges.add(i);
            let (s, _) = offset(clang_getRangeStart(r));
            let (e, _) = offset(clang_getRangeEnd(r));
            out.push((s, e));
        }
        clang_disposeSourceRangeList(list);
    }
    out
}

/// One clang diagnostic of the translation unit.
pub struct ClangDiagnostic {
    pub severity: CXDiagnosticSeverity,
    pub message: String,
    /// Offset in the main file, if it is there.
    pub offset: Option<u32>,
    /// `file:line:col` when it is not in the main file.
    pub location: String,
}

pub fn diagnostics(tu: &TranslationUnit) -> Vec<ClangDiagnostic> {
    let mut out = Vec::new();
    unsafe {
        let n = clang_getNumDiagnostics(tu.tu);
        for i in 0..n {
            let d = clang_getDiagnostic(tu.tu, i);
            let severity = clang_getDiagnosticSeverity(d);
            let message = take_string(clang_getDiagnosticSpelling(d));
            let loc = clang_getDiagnosticLocation(d);
            let (off, in_main) = offset(loc);
            let mut file: CXFile = std::ptr::null_mut();
            let (mut line, mut col) = (0, 0);
            clang_getSpellingLocation(loc, &mut file, &mut line, &mut col, std::ptr::null_mut());
            let name = if file.is_null() {
                String::new()
            } else {
                take_string(clang_getFileName(file))
            };
            out.push(ClangDiagnostic {
                severity,
                message,
                offset: in_main.then_some(off),
                location: if name.is_empty() {
                    String::new()
                } else {
                    format!("{name}:{line}:{col}")
                },
            });
            clang_disposeDiagnostic(d);
        }
    }
    out
}

/// Folds an integer constant expression (`clang_Cursor_Evaluate`).
pub fn evaluate_int(c: CXCursor) -> Option<i64> {
    unsafe {
        let r = clang_Cursor_Evaluate(c);
        if r.is_null() {
            return None;
        }
        let v = if clang_EvalResult_getKind(r) == CXEval_Int {
            Some(clang_EvalResult_getAsLongLong(r))
        } else {
            None
        };
        clang_EvalResult_dispose(r);
        v
    }
}
