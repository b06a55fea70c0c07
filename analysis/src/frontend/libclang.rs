//! The safe face of libclang: the only module of the crate with `unsafe` code, and, apart from
//! the kind constants `lower.rs` matches on, the only one that touches clang-sys.
//!
//! libclang is loaded at run time, so that a machine without it gets a clear message instead
//! of a dynamic-linker failure. clang-sys keeps the loaded library per thread; every entry
//! point calls [`ensure_loaded`] on its own thread, which shares one loaded copy.
//!
//! # Safety invariants
//!
//! Every `unsafe` block below calls into libclang through clang-sys and relies on these:
//!
//! - **Loaded library.** clang-sys's wrappers look the function up in the library loaded on
//!   the calling thread and *panic* (never call through a dangling pointer) when there is none
//!   or it lacks the function; [`ensure_loaded`] rejects a libclang older than 17, which has
//!   every function called here.
//! - **Live handles.** A [`TranslationUnit`] owns its `CXTranslationUnit` and `CXIndex` and
//!   disposes them only in `Drop`. A [`Cursor<'tu>`] or [`Type<'tu>`] can only be made from a
//!   `&'tu TranslationUnit` (or from another cursor or type of it), so it cannot outlive the
//!   unit, nor live across [`TranslationUnit::reparse`] (which takes `&mut self` and
//!   invalidates every cursor). Null cursors and invalid types are valid arguments to every
//!   libclang query used here (they answer "null", "invalid" or 0).
//! - **One thread at a time.** `TranslationUnit` is `Send` but not `Sync`, and cursors and
//!   types are neither (they hold raw pointers), so a unit and everything made from it is used
//!   by one thread at a time, as libclang requires.
//! - **No unwinding through C.** The only callback ([`Cursor::children`]) pushes onto a `Vec`
//!   and returns; nothing in it can unwind into libclang (see DESIGN.md).
//! - **Owned results.** Every `CXString`, diagnostic, evaluation result and range list that
//!   libclang hands over is disposed exactly once, right after it is read.

#![deny(clippy::undocumented_unsafe_blocks)]

use clang_sys::*;
use std::ffi::{CStr, CString};
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::os::raw::{c_uint, c_void};
use std::sync::{Arc, OnceLock};

/// Where Debian's `libclang-19-dev` puts the library.
const DEFAULT_LIBCLANG_DIR: &str = "/usr/lib/llvm-19/lib";
/// `clang_getCursorBinaryOperatorKind` and friends appeared in libclang 17.
const MIN_MAJOR: u32 = 17;

static LIBRARY: OnceLock<Result<Arc<SharedLibrary>, String>> = OnceLock::new();

/// The directory a program should give clang-sys as `LIBCLANG_PATH` when the user gave none:
/// Debian's libclang 19, if it is installed. `None` when `LIBCLANG_PATH` is already set or
/// that directory does not exist.
///
/// The library never sets environment variables (that is unsound once other threads run);
/// `omplens`'s `main` sets this default before it starts any thread, and `cargo test` gets the
/// same value from `.cargo/config.toml`. Without it, clang-sys searches the usual directories
/// itself and loads the newest libclang it finds.
pub fn default_libclang_path() -> Option<&'static str> {
    (std::env::var_os("LIBCLANG_PATH").is_none()
        && std::path::Path::new(DEFAULT_LIBCLANG_DIR).is_dir())
    .then_some(DEFAULT_LIBCLANG_DIR)
}

/// Loads libclang (once per process) and makes it usable on the calling thread.
pub fn ensure_loaded() -> Result<(), String> {
    if clang_sys::is_loaded() {
        return Ok(());
    }
    let lib = LIBRARY.get_or_init(|| {
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

/// Lowers the calling thread's scheduling priority (Linux: a thread's nice value is its
/// own), so that background builds take the processors the analyses leave.
pub fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` has no preconditions; `setpriority` on this thread's id changes only
    // its nice value, and a failure (no permission to change it) is harmless.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// Ends the process with `code` at once, after flushing Rust's standard streams, without
/// running C++ static destructors or `atexit` handlers: LLVM's would be pulled from under a
/// libclang thread still at work (a preamble made in the background, an analysis nobody
/// waits for any more), which aborts with "pure virtual method called".
pub fn exit_process(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` takes no pointer and does not return; what the process still owed its
    // output was flushed above, and files omplens writes are renamed into place whole.
    unsafe { libc::_exit(code) }
}

/// `clang_getClangVersion`, e.g. "Debian clang version 19.1.7".
pub fn version() -> String {
    // SAFETY: takes no handle; the returned string is ours to dispose (`take_string`).
    take_string(unsafe { clang_getClangVersion() })
}

/// Converts and disposes a CXString that libclang handed over.
fn take_string(s: CXString) -> String {
    // SAFETY: `s` came from a libclang call that transfers ownership of the string; it is
    // read (a NUL-terminated C string, or null) before it is disposed, once, here.
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

struct Index(CXIndex);

impl Index {
    /// `exclude_pch`: a walk of the unit's declarations leaves out those of an `-include-pch`
    /// file (shared system headers, which lowering skips anyway: it saves deserialising them).
    fn new(exclude_pch: bool) -> Index {
        // display diagnostics on stderr: 0.
        // SAFETY: plain arguments; the index is disposed once, in `drop`.
        Index(unsafe { clang_createIndex(exclude_pch as i32, 0) })
    }
}

impl Drop for Index {
    fn drop(&mut self) {
        // A kept unit may be dropped on a thread that never parsed (a closed file's, on
        // another worker): clang-sys needs the library loaded on the calling thread.
        if ensure_loaded().is_ok() {
            // SAFETY: the index was created by `Index::new` and is disposed only here; the
            // translation unit made from it was disposed first (field order, see below).
            unsafe { clang_disposeIndex(self.0) }
        }
    }
}

pub struct TranslationUnit {
    tu: CXTranslationUnit,
    // Keeps the index alive as long as the translation unit (fields drop after `drop`).
    _index: Index,
    /// A walk of its top level meets only the declarations parsed in it, not those of its
    /// precompiled preamble or `-include-pch` file ([`parse_with_preamble`],
    /// [`parse_after_pch`]).
    local_walks: bool,
}

// SAFETY: a libclang translation unit (and its index) may be used from any thread as long as
// no two threads use it at once; the TU cache keeps each behind a mutex, and a fresh parse
// is owned by the one thread lowering it. It is deliberately not `Sync`, and the cursors and
// types borrowed from it are neither `Send` nor `Sync`.
unsafe impl Send for TranslationUnit {}

impl Drop for TranslationUnit {
    fn drop(&mut self) {
        // See `Index::drop`: the thread may not have loaded libclang yet.
        if ensure_loaded().is_ok() {
            // SAFETY: `self.tu` is non-null (checked in `parse_with`) and owned by `self`; no
            // cursor can outlive `self` (they borrow it), so nothing uses it after this.
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

/// [`parse`] after the headers precompiled in `pch` (made by [`save_header_pch`]): as if the
/// file began with their `#include` lines. Their declarations are left out of the unit's walk.
pub fn parse_after_pch(
    path: &str,
    args: &[String],
    contents: Option<&str>,
    pch: &str,
) -> Result<TranslationUnit, String> {
    let mut with_pch = Vec::with_capacity(args.len() + 2);
    with_pch.push("-include-pch".to_string());
    with_pch.push(pch.to_string());
    with_pch.extend(args.iter().cloned());
    parse_options(path, &with_pch, contents, false, false, false)
}

/// Parses `text` as the header `path` with `args` (which name the header language, `-x
/// c-header` or `-x c++-header`) and writes it precompiled to `out`; returns the files it
/// includes. Refused (`Err`, nothing written) when clang reports an error or when the header
/// includes a file that is not a system header: such a PCH could not stand for the
/// `#include` lines of another file.
pub fn save_header_pch(
    path: &str,
    text: &str,
    args: &[String],
    out: &str,
) -> Result<Vec<String>, String> {
    let tu = parse_options(path, args, Some(text), false, true, false)?;
    if let Some(d) = diagnostics(&tu)
        .into_iter()
        .find(|d| d.severity == CXDiagnostic_Error || d.severity == CXDiagnostic_Fatal)
    {
        return Err(format!("{}: {}", d.location, d.message));
    }
    let included = inclusions(&tu);
    if let Some((f, _)) = included.iter().find(|(_, system)| !system) {
        return Err(format!("{f} is not a system header"));
    }
    let out_c = CString::new(out).map_err(|_| "PCH path contains a NUL byte".to_string())?;
    // SAFETY: `tu.tu` is live and the out path is NUL-terminated for the call.
    let code = unsafe {
        clang_saveTranslationUnit(tu.tu, out_c.as_ptr(), clang_defaultSaveOptions(tu.tu))
    };
    if code != CXSaveError_None {
        return Err(format!("libclang could not save the PCH (error {code})"));
    }
    Ok(included.into_iter().map(|(f, _)| f).collect())
}

/// The files the unit includes (its main file aside), each with whether it is in a system
/// header directory.
fn inclusions(tu: &TranslationUnit) -> Vec<(String, bool)> {
    extern "C" fn visit(
        file: CXFile,
        _stack: *mut CXSourceLocation,
        _depth: c_uint,
        data: CXClientData,
    ) {
        // SAFETY: `data` is the `&mut Vec<CXFile>` passed below, alive during the call and
        // used by nothing else meanwhile. Pushing cannot unwind short of an allocation
        // failure, which aborts.
        let files = unsafe { &mut *(data as *mut Vec<CXFile>) };
        files.push(file);
    }
    let mut files: Vec<CXFile> = Vec::new();
    // SAFETY: `tu.tu` is live; the callback only pushes onto `files`, which outlives the call.
    unsafe { clang_getInclusions(tu.tu, visit, &mut files as *mut Vec<CXFile> as CXClientData) };
    files
        .into_iter()
        .filter(|f| !f.is_null())
        .filter_map(|f| {
            // SAFETY: the file came from this live unit; a location at offset 0 of one of its
            // files is valid to ask about, and the name string is taken (disposed) once.
            unsafe {
                let loc = clang_getLocationForOffset(tu.tu, f, 0);
                if clang_Location_isFromMainFile(loc) != 0 {
                    return None;
                }
                Some((
                    take_string(clang_getFileName(f)),
                    clang_Location_isInSystemHeader(loc) != 0,
                ))
            }
        })
        .collect()
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
    parse_options(path, args, contents, preamble, false, false)
}

/// [`parse_with`] keeping a precompiled preamble; with `local_walks`, a walk of the unit's
/// top level (and of every reparse's) meets only the declarations parsed after the preamble:
/// the preamble's are not deserialised (on LULESH half of lowering's time). Their
/// declarations are still reachable by position ([`TranslationUnit::cursor_at`]).
pub fn parse_with_preamble(
    path: &str,
    args: &[String],
    contents: Option<&str>,
    local_walks: bool,
) -> Result<TranslationUnit, String> {
    parse_options(path, args, contents, true, false, local_walks)
}

/// The one parse: `preamble` as in [`parse_with`]; `pch_build`: the unit is to be saved as a
/// PCH (and its declarations are all walked), `!pch_build` with an `-include-pch` in `args`
/// leaves that file's declarations out of walks.
fn parse_options(
    path: &str,
    args: &[String],
    contents: Option<&str>,
    preamble: bool,
    pch_build: bool,
    local_walks: bool,
) -> Result<TranslationUnit, String> {
    let local_walks = local_walks || (!pch_build && args.iter().any(|a| a == "-include-pch"));
    let index = Index::new(local_walks);
    let buffer = Unsaved::new(path, contents)?;
    // A precompiled preamble leaves the template instantiations its headers ask for to the
    // main file, so every reparse instantiated the standard library's templates again (on
    // LULESH, 60 of a reparse's 85 ms). Instantiated once, in the preamble, a reparse is
    // 25 ms. Without a preamble the flag does nothing.
    let pch_flag = preamble.then(|| "-fpch-instantiate-templates".to_string());
    let c_args: Vec<CString> = args
        .iter()
        .chain(pch_flag.iter())
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
    if pch_build {
        // (The PCH keeps the detailed record: without it the macros of system headers that
        // lowering looks up are missing, which changes findings.)
        options |= CXTranslationUnit_ForSerialization;
    }
    let mut tu: CXTranslationUnit = std::ptr::null_mut();
    // SAFETY: `index` is live; the path, the flags (`c_args`, pointed to by `arg_ptrs`) and
    // the unsaved buffers (`buffer`, pointed to by `unsaved`) are NUL-terminated and outlive
    // the call, and the lengths passed are those of the arrays; `tu` is a valid out-pointer.
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
    Ok(TranslationUnit {
        tu,
        _index: index,
        local_walks,
    })
}

impl TranslationUnit {
    /// Parses the translation unit again with `contents` as the text of `path` (its main
    /// file), reusing the precompiled preamble when the leading `#include` block is unchanged.
    /// On an error the translation unit is no longer valid: the caller must drop it.
    pub fn reparse(&mut self, path: &str, contents: &str) -> Result<(), String> {
        let buffer = Unsaved::new(path, Some(contents))?;
        let mut unsaved = buffer.files();
        // SAFETY: `self.tu` is live, and `&mut self` guarantees no cursor of it exists (they
        // borrow the unit), so invalidating them is sound; the unsaved buffers outlive the
        // call and `unsaved.len()` is their number.
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

    /// Whether a walk of the top level meets only the declarations parsed in the unit (see
    /// the field `local_walks`): then it also meets the functions clang instantiated from
    /// templates, which it hands its consumer as top-level declarations.
    pub fn walks_local_only(&self) -> bool {
        self.local_walks
    }

    /// The cursor libclang finds at byte `offset` of the file `path` of this unit (the most
    /// specific one there), if the unit has that file.
    pub fn cursor_at(&self, path: &str, offset: u32) -> Option<Cursor<'_>> {
        let f = self.file(path);
        if f.is_null() {
            return None;
        }
        // SAFETY: `self.tu` is live and `f` is one of its files; a location is a plain
        // value, and the cursor borrows the unit.
        let c = Cursor::new(unsafe {
            clang_getCursor(self.tu, clang_getLocationForOffset(self.tu, f, offset))
        });
        (!c.is_null()).then_some(c)
    }

    /// The name of every file the unit includes (headers, at any depth; not the main file).
    pub fn included_files(&self) -> Vec<String> {
        extern "C" fn visit(
            file: CXFile,
            _stack: *mut CXSourceLocation,
            len: c_uint,
            data: CXClientData,
        ) {
            // (The main file is the one with no inclusion stack.)
            if len == 0 {
                return;
            }
            // SAFETY: `data` is the `Vec` passed below, alive for the whole call of
            // `clang_getInclusions`, which calls back on this thread only; `file` is live.
            unsafe {
                let out = &mut *(data as *mut Vec<String>);
                out.push(take_string(clang_getFileName(file)));
            }
        }
        let mut out: Vec<String> = Vec::new();
        // SAFETY: `self.tu` is live; the callback only writes to `out` through `data`.
        unsafe {
            clang_getInclusions(self.tu, visit, &mut out as *mut Vec<String> as CXClientData)
        };
        out
    }

    /// For every file the unit includes: the main-file offset of the `#include` that brings
    /// it in (directly, or through the headers that include it).
    pub fn include_sites(&self) -> std::collections::HashMap<String, u32> {
        extern "C" fn visit(
            file: CXFile,
            stack: *mut CXSourceLocation,
            len: c_uint,
            data: CXClientData,
        ) {
            // (The main file is the one with no inclusion stack.)
            if len == 0 || stack.is_null() {
                return;
            }
            // SAFETY: `data` is the map passed below, alive for the whole call of
            // `clang_getInclusions`, which calls back on this thread only; `file` is live and
            // `stack` holds `len` locations, the last one in the main file.
            unsafe {
                let out = &mut *(data as *mut std::collections::HashMap<String, u32>);
                let (_, at) = expansion(*stack.add(len as usize - 1));
                out.insert(take_string(clang_getFileName(file)), at);
            }
        }
        let mut out = std::collections::HashMap::new();
        // SAFETY: `self.tu` is live; the callback only writes to `out` through `data`.
        unsafe {
            clang_getInclusions(
                self.tu,
                visit,
                &mut out as *mut std::collections::HashMap<String, u32> as CXClientData,
            )
        };
        out
    }

    /// The cursor of the whole translation unit, the root of its declarations.
    pub fn cursor(&self) -> Cursor<'_> {
        // SAFETY: `self.tu` is live for the borrow the cursor carries.
        Cursor::new(unsafe { clang_getTranslationUnitCursor(self.tu) })
    }

    /// A file of this unit (a header it includes), if it has one named `path`.
    pub fn header(&self, path: &str) -> Option<FileHandle<'_>> {
        let f = self.file(path);
        (!f.is_null()).then_some(FileHandle(f, PhantomData))
    }

    /// libclang's handle of the file `path` in this unit (null if the unit has no such file).
    fn file(&self, path: &str) -> CXFile {
        match CString::new(path) {
            // SAFETY: `self.tu` is live and the name is NUL-terminated for the call.
            Ok(p) => unsafe { clang_getFile(self.tu, p.as_ptr()) },
            Err(_) => std::ptr::null_mut(),
        }
    }
}

// ----- cursors and types -----------------------------------------------------------------

/// A libclang cursor (an AST node) of the translation unit it borrows: it cannot outlive the
/// unit or be used across a reparse. Equality and hashing are libclang's
/// (`clang_equalCursors`, `clang_hashCursor`). Null cursors never come out of the accessors
/// that return `Option`.
#[derive(Clone, Copy)]
pub struct Cursor<'tu> {
    raw: CXCursor,
    _tu: PhantomData<&'tu TranslationUnit>,
}

/// A libclang type, borrowed from its translation unit like [`Cursor`].
#[derive(Clone, Copy)]
pub struct Type<'tu> {
    raw: CXType,
    _tu: PhantomData<&'tu TranslationUnit>,
}

/// Whether cursors of kind `k` declare a function omplens lowers: free functions, methods,
/// constructors, destructors, conversion functions and function templates.
pub fn is_function_declaration(k: CXCursorKind) -> bool {
    matches!(
        k,
        CXCursor_FunctionDecl
            | CXCursor_CXXMethod
            | CXCursor_Constructor
            | CXCursor_Destructor
            | CXCursor_ConversionFunction
            | CXCursor_FunctionTemplate
    )
}

/// `clang_isDeclaration`: whether cursors of kind `k` are declarations.
pub fn is_declaration(k: CXCursorKind) -> bool {
    // SAFETY: a plain value in, a plain value out; any kind is accepted.
    unsafe { clang_isDeclaration(k) != 0 }
}

/// `clang_isExpression`: whether cursors of kind `k` are expressions.
pub fn is_expression(k: CXCursorKind) -> bool {
    // SAFETY: as in `is_declaration`.
    unsafe { clang_isExpression(k) != 0 }
}

/// `clang_isStatement`: whether cursors of kind `k` are statements.
pub fn is_statement(k: CXCursorKind) -> bool {
    // SAFETY: as in `is_declaration`.
    unsafe { clang_isStatement(k) != 0 }
}

/// libclang's name of a cursor kind (`"CXXTryStmt"`).
pub fn kind_spelling(k: CXCursorKind) -> String {
    // SAFETY: a plain value in; the string is ours to dispose (`take_string`).
    take_string(unsafe { clang_getCursorKindSpelling(k) })
}

impl<'tu> Cursor<'tu> {
    /// Wraps a cursor that libclang returned for a cursor or unit of lifetime `'tu`.
    fn new(raw: CXCursor) -> Self {
        Cursor {
            raw,
            _tu: PhantomData,
        }
    }

    /// [`Cursor::new`], `None` for the null cursor.
    fn non_null(raw: CXCursor) -> Option<Self> {
        let c = Cursor::new(raw);
        (!c.is_null()).then_some(c)
    }

    pub fn is_null(self) -> bool {
        // SAFETY: the handle is a live cursor of a live unit, used on the unit's one thread
        // (see the module's safety invariants); arguments and results are plain values, and
        // results that own memory go through `take_string` or are disposed in place. Every
        // block in the `impl`s of `Cursor` and `Type` that says "see `is_null`" rests on this.
        unsafe { clang_Cursor_isNull(self.raw) != 0 }
    }

    pub fn kind(self) -> CXCursorKind {
        // SAFETY: see `is_null`.
        unsafe { clang_getCursorKind(self.raw) }
    }

    pub fn spelling(self) -> String {
        // SAFETY: see `is_null`; the string is ours to dispose.
        take_string(unsafe { clang_getCursorSpelling(self.raw) })
    }

    /// The children of the cursor, in order. The callback only pushes: nothing in it can
    /// unwind into libclang.
    pub fn children(self) -> Vec<Cursor<'tu>> {
        extern "C" fn visit(
            c: CXCursor,
            _parent: CXCursor,
            data: CXClientData,
        ) -> CXChildVisitResult {
            // SAFETY: `data` is the `Vec` passed to `clang_visitChildren` below, alive and not
            // otherwise borrowed for the whole visit.
            let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
            out.push(c);
            CXChildVisit_Continue
        }
        let mut out: Vec<CXCursor> = Vec::new();
        // SAFETY: see `is_null`; `visit` matches the callback type, never unwinds, and gets
        // `out` as its client data, which lives across the call.
        unsafe {
            clang_visitChildren(
                self.raw,
                visit,
                &mut out as *mut Vec<CXCursor> as *mut c_void,
            );
        }
        out.into_iter().map(Cursor::new).collect()
    }

    /// Extent of the cursor as main-file offsets, `None` if it does not start in the main
    /// file.
    pub fn extent(self) -> Option<(u32, u32)> {
        // SAFETY: see `is_null`; a source range is a plain value.
        let r = unsafe { clang_getCursorExtent(self.raw) };
        // SAFETY: as above.
        let (s, in_main) = offset(unsafe { clang_getRangeStart(r) });
        if !in_main {
            return None;
        }
        // SAFETY: as above.
        let (e, _) = offset(unsafe { clang_getRangeEnd(r) });
        Some((s, e.max(s)))
    }

    /// The cursor's extent as offsets in `file` (where its code is expanded, like
    /// [`Self::extent`] for the main file), if both ends are there.
    pub fn extent_in(self, file: FileHandle<'_>) -> Option<(u32, u32)> {
        // SAFETY: see `is_null`; ranges are plain values; `file` borrows the live unit.
        unsafe {
            let r = clang_getCursorExtent(self.raw);
            let at = |loc: CXSourceLocation| {
                let (f, off) = expansion(loc);
                (!f.is_null() && clang_File_isEqual(f, file.0) != 0).then_some(off)
            };
            let s = at(clang_getRangeStart(r))?;
            let e = at(clang_getRangeEnd(r))?;
            Some((s, e.max(s)))
        }
    }

    /// The cursor's extent in the file it is written in (not the main file's offsets): the
    /// file's name and the byte offsets of both ends, if both are in the same file.
    pub fn file_extent(self) -> Option<(String, u32, u32)> {
        // SAFETY: see `is_null`; ranges and locations are plain values; the out-pointers are
        // valid locals (null for the values not wanted); the file name string is taken by
        // `take_string`.
        unsafe {
            let r = clang_getCursorExtent(self.raw);
            let at = |loc: CXSourceLocation| {
                let mut file: CXFile = std::ptr::null_mut();
                let mut off: c_uint = 0;
                clang_getSpellingLocation(
                    loc,
                    &mut file,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    &mut off,
                );
                (file, off)
            };
            let (f1, s) = at(clang_getRangeStart(r));
            let (f2, e) = at(clang_getRangeEnd(r));
            if f1.is_null() || f2.is_null() || clang_File_isEqual(f1, f2) == 0 {
                return None;
            }
            Some((take_string(clang_getFileName(f1)), s, e.max(s)))
        }
    }

    /// The file where the cursor's code is expanded, with the byte offsets of both ends of
    /// its extent there, if both are in that one file, and whether it is a system header.
    pub fn expansion_extent(self) -> Option<(FileHandle<'tu>, String, u32, u32, bool)> {
        // SAFETY: see `is_null`; ranges and locations are plain values; the file name string
        // is taken by `take_string`; the file belongs to the unit the cursor borrows.
        unsafe {
            let r = clang_getCursorExtent(self.raw);
            let (f1, s) = expansion(clang_getRangeStart(r));
            let (f2, e) = expansion(clang_getRangeEnd(r));
            if f1.is_null() || f2.is_null() || clang_File_isEqual(f1, f2) == 0 {
                return None;
            }
            let system = clang_Location_isInSystemHeader(clang_getRangeStart(r)) != 0;
            let name = take_string(clang_getFileName(f1));
            Some((FileHandle(f1, PhantomData), name, s, e.max(s), system))
        }
    }

    /// Whether the cursor's location is in a system header (`-isystem`, the C and C++
    /// libraries).
    pub fn in_system_header(self) -> bool {
        // SAFETY: see `is_null`; a source location is a plain value.
        unsafe { clang_Location_isInSystemHeader(clang_getCursorLocation(self.raw)) != 0 }
    }

    /// The file and byte offset of the cursor's own location, where its code is expanded.
    pub fn file_location(self) -> Option<(String, u32)> {
        // SAFETY: see `is_null`; a source location is a plain value.
        expansion_file_offset(unsafe { clang_getCursorLocation(self.raw) })
    }

    /// The file and byte offset where the cursor's extent starts, where its code is
    /// expanded.
    pub fn file_start(self) -> Option<(String, u32)> {
        // SAFETY: see `is_null`; ranges and locations are plain values.
        expansion_file_offset(unsafe { clang_getRangeStart(clang_getCursorExtent(self.raw)) })
    }

    /// Offset of the cursor's own location (e.g. a declarator's name), if in the main file.
    pub fn location(self) -> Option<u32> {
        // SAFETY: see `is_null`.
        let (o, in_main) = offset(unsafe { clang_getCursorLocation(self.raw) });
        in_main.then_some(o)
    }

    /// Offset of the cursor's location in `file` (where its code is expanded), if it is there.
    pub fn location_in(self, file: FileHandle<'_>) -> Option<u32> {
        // SAFETY: see `is_null`; `file` borrows the live unit.
        unsafe {
            let (f, off) = expansion(clang_getCursorLocation(self.raw));
            (!f.is_null() && clang_File_isEqual(f, file.0) != 0).then_some(off)
        }
    }

    /// The type of the declaration or expression.
    pub fn ty(self) -> Type<'tu> {
        // SAFETY: see `is_null`.
        Type::new(unsafe { clang_getCursorType(self.raw) })
    }

    /// Whether the declaration is visible only in its translation unit (`static`, an
    /// anonymous namespace).
    pub fn has_internal_linkage(self) -> bool {
        // SAFETY: see `is_null`.
        let l = unsafe { clang_getCursorLinkage(self.raw) };
        l == CXLinkage_Internal || l == CXLinkage_NoLinkage
    }

    /// The declaration a reference or call refers to.
    pub fn referenced(self) -> Option<Cursor<'tu>> {
        // SAFETY: see `is_null`.
        Cursor::non_null(unsafe { clang_getCursorReferenced(self.raw) })
    }

    /// The candidates an overloaded reference names (a call in a template whose callee
    /// waits for instantiation, `f<T>(x)`): empty for any other cursor.
    pub fn overloaded_decls(self) -> Vec<Cursor<'tu>> {
        if self.kind() != CXCursor_OverloadedDeclRef {
            return Vec::new();
        }
        // SAFETY: see `is_null`.
        let n = unsafe { clang_getNumOverloadedDecls(self.raw) };
        (0..n)
            // SAFETY: see `is_null`; the index is below the count libclang gives.
            .filter_map(|i| Cursor::non_null(unsafe { clang_getOverloadedDecl(self.raw, i) }))
            .collect()
    }

    /// The parameter declarations among a function's (or function template's) children, in
    /// order: libclang numbers no arguments for a template, so these are its parameters.
    pub fn parm_decls(self) -> Vec<Cursor<'tu>> {
        self.children()
            .into_iter()
            .filter(|k| k.kind() == CXCursor_ParmDecl)
            .collect()
    }

    /// The canonical (first) declaration of the entity.
    pub fn canonical(self) -> Cursor<'tu> {
        // SAFETY: see `is_null`.
        Cursor::new(unsafe { clang_getCanonicalCursor(self.raw) })
    }

    /// The template a specialisation (or a member of one) was instantiated from.
    pub fn specialized_template(self) -> Option<Cursor<'tu>> {
        // SAFETY: see `is_null`.
        Cursor::non_null(unsafe { clang_getSpecializedCursorTemplate(self.raw) })
    }

    /// The declaration that defines what the cursor declares or refers to, if the unit has it.
    pub fn definition(self) -> Option<Cursor<'tu>> {
        // SAFETY: see `is_null`.
        Cursor::non_null(unsafe { clang_getCursorDefinition(self.raw) })
    }

    /// The semantic parent (the function of a local, the class of a member, ...).
    pub fn semantic_parent(self) -> Option<Cursor<'tu>> {
        // SAFETY: see `is_null`.
        Cursor::non_null(unsafe { clang_getCursorSemanticParent(self.raw) })
    }

    pub fn is_definition(self) -> bool {
        // SAFETY: see `is_null`.
        unsafe { clang_isCursorDefinition(self.raw) != 0 }
    }

    pub fn is_static_method(self) -> bool {
        // SAFETY: see `is_null`.
        unsafe { clang_CXXMethod_isStatic(self.raw) != 0 }
    }

    pub fn storage_class(self) -> CX_StorageClass {
        // SAFETY: see `is_null`.
        unsafe { clang_Cursor_getStorageClass(self.raw) }
    }

    /// The arguments of a call, or the parameters of a function declaration, as libclang
    /// numbers them (an entry may be the null cursor).
    pub fn arguments(self) -> Vec<Cursor<'tu>> {
        // SAFETY: see `is_null`; -1 (not a call or function) yields no argument.
        let n = unsafe { clang_Cursor_getNumArguments(self.raw) }.max(0) as u32;
        (0..n)
            // SAFETY: see `is_null`; `i` is below the count.
            .map(|i| Cursor::new(unsafe { clang_Cursor_getArgument(self.raw, i) }))
            .collect()
    }

    /// The initialiser of a variable declaration.
    pub fn var_decl_initializer(self) -> Option<Cursor<'tu>> {
        // SAFETY: see `is_null`.
        Cursor::non_null(unsafe { clang_Cursor_getVarDeclInitializer(self.raw) })
    }

    pub fn binary_operator(self) -> CXBinaryOperatorKind {
        // SAFETY: see `is_null`; present in libclang 17+ (checked by `ensure_loaded`).
        unsafe { clang_getCursorBinaryOperatorKind(self.raw) }
    }

    pub fn unary_operator(self) -> CXUnaryOperatorKind {
        // SAFETY: as in `binary_operator`.
        unsafe { clang_getCursorUnaryOperatorKind(self.raw) }
    }

    pub fn enum_constant_value(self) -> i64 {
        // SAFETY: see `is_null`.
        unsafe { clang_getEnumConstantDeclValue(self.raw) }
    }

    /// Folds an integer constant expression (`clang_Cursor_Evaluate`).
    pub fn evaluate_int(self) -> Option<i64> {
        // SAFETY: see `is_null`; the result is read and then disposed once.
        unsafe {
            let r = clang_Cursor_Evaluate(self.raw);
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
}

impl PartialEq for Cursor<'_> {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: see `Cursor::is_null`.
        unsafe { clang_equalCursors(self.raw, other.raw) != 0 }
    }
}

impl Eq for Cursor<'_> {}

impl Hash for Cursor<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // SAFETY: see `Cursor::is_null`. Cursors libclang calls equal hash alike.
        state.write_u32(unsafe { clang_hashCursor(self.raw) });
    }
}

impl<'tu> Type<'tu> {
    fn new(raw: CXType) -> Self {
        Type {
            raw,
            _tu: PhantomData,
        }
    }

    pub fn kind(self) -> CXTypeKind {
        self.raw.kind
    }

    pub fn spelling(self) -> String {
        // SAFETY: see `Cursor::is_null`; the string is ours to dispose.
        take_string(unsafe { clang_getTypeSpelling(self.raw) })
    }

    pub fn canonical(self) -> Type<'tu> {
        // SAFETY: see `Cursor::is_null`.
        Type::new(unsafe { clang_getCanonicalType(self.raw) })
    }

    /// The pointee of a pointer or reference type.
    pub fn pointee(self) -> Type<'tu> {
        // SAFETY: see `Cursor::is_null`.
        Type::new(unsafe { clang_getPointeeType(self.raw) })
    }

    /// The declaration of a record, enum or typedef type (for a class template's
    /// specialization, the template or the specialization), if any.
    pub fn declaration(self) -> Option<Cursor<'tu>> {
        // SAFETY: see `Cursor::is_null`.
        Cursor::non_null(unsafe { clang_getTypeDeclaration(self.raw) })
    }

    /// The return type of a function type.
    pub fn result(self) -> Type<'tu> {
        // SAFETY: see `Cursor::is_null`.
        Type::new(unsafe { clang_getResultType(self.raw) })
    }

    /// The element type of an array type.
    pub fn array_element(self) -> Type<'tu> {
        // SAFETY: see `Cursor::is_null`.
        Type::new(unsafe { clang_getArrayElementType(self.raw) })
    }

    /// The length of a constant array type (negative otherwise).
    pub fn array_size(self) -> i64 {
        // SAFETY: see `Cursor::is_null`.
        unsafe { clang_getArraySize(self.raw) }
    }

    /// `sizeof` in bytes, or a negative `CXTypeLayoutError`.
    pub fn size_of(self) -> i64 {
        // SAFETY: see `Cursor::is_null`.
        unsafe { clang_Type_getSizeOf(self.raw) }
    }

    pub fn is_const(self) -> bool {
        // SAFETY: see `Cursor::is_null`.
        unsafe { clang_isConstQualifiedType(self.raw) != 0 }
    }
}

// ----- locations, skipped ranges, diagnostics ----------------------------------------------

thread_local! {
    /// The main file of the translation unit being lowered on this thread.
    static MAIN_FILE: std::cell::Cell<CXFile> = const { std::cell::Cell::new(std::ptr::null_mut()) };
}

/// A file of a translation unit (see [`TranslationUnit::header`]).
#[derive(Clone, Copy)]
pub struct FileHandle<'tu>(CXFile, PhantomData<&'tu TranslationUnit>);

/// Makes `path` of `tu` the main file for the offsets of cursors while the guard lives.
pub struct MainFileGuard<'tu>(PhantomData<&'tu TranslationUnit>);

impl<'tu> MainFileGuard<'tu> {
    pub fn new(tu: &'tu TranslationUnit, path: &str) -> MainFileGuard<'tu> {
        MAIN_FILE.with(|m| m.set(tu.file(path)));
        MainFileGuard(PhantomData)
    }
}

impl Drop for MainFileGuard<'_> {
    fn drop(&mut self) {
        MAIN_FILE.with(|m| m.set(std::ptr::null_mut()));
    }
}

/// The file (null if none) and byte offset of `loc`'s expansion point (where a macro was
/// used, for code that comes from a macro).
fn expansion(loc: CXSourceLocation) -> (CXFile, u32) {
    let mut f: CXFile = std::ptr::null_mut();
    let mut off: c_uint = 0;
    // SAFETY: `loc` comes from a live unit (see `Cursor::is_null`); the out-pointers are
    // valid locals (null for the values not wanted, which libclang allows).
    unsafe {
        clang_getExpansionLocation(
            loc,
            &mut f,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut off,
        )
    };
    (f, off)
}

/// The file name and byte offset of `loc`'s expansion point.
fn expansion_file_offset(loc: CXSourceLocation) -> Option<(String, u32)> {
    let (f, off) = expansion(loc);
    // SAFETY: `f` is a live file of the unit `loc` comes from; the string is taken by
    // `take_string`.
    (!f.is_null()).then(|| (take_string(unsafe { clang_getFileName(f) }), off))
}

/// File offset of a location's expansion point, and whether that point is in the main file.
fn offset(loc: CXSourceLocation) -> (u32, bool) {
    let (file, off) = expansion(loc);
    // SAFETY: `loc` comes from a live unit (see `Cursor::is_null`). The main file was set by
    // a `MainFileGuard`, which borrows the unit being lowered; it is compared only while
    // non-null.
    unsafe {
        let main = MAIN_FILE.with(|m| m.get());
        let in_main = if main.is_null() || file.is_null() {
            clang_Location_isFromMainFile(loc) != 0
        } else {
            clang_File_isEqual(file, main) != 0
        };
        (off, in_main)
    }
}

/// The main file's skipped preprocessor ranges (`#if 0` blocks and the like), as offsets.
pub fn skipped_ranges(tu: &TranslationUnit, path: &str) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let file = tu.file(path);
    if file.is_null() {
        return out;
    }
    // SAFETY: `tu` and its `file` are live; the list libclang returns holds `count` ranges
    // at `ranges`, read before it is disposed once.
    unsafe {
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
    // SAFETY: `tu` is live and `i` is below its diagnostic count; each diagnostic is read
    // and then disposed once; strings are taken by `take_string`; the out-pointers are valid
    // locals (null for the offset, which libclang allows).
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
