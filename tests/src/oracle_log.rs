//! Parser for the libomptarget (LLVM 19) INFO lines that a host-offloaded program prints on
//! stderr when run with `LIBOMPTARGET_INFO=$((0x1|0x2|0x20))`.
//!
//! The formats, as observed from clang-19 / libomptarget 19.1 (each line is prefixed with
//! `omptarget device <N> info: `):
//!
//! ```text
//! Entering OpenMP kernel at mapped_ok.c:22:1 with 2 arguments:
//! Entering OpenMP data region with being_mapper at mapped_ok.c:20:1 with 2 arguments:
//! Exiting OpenMP data region with end_mapper at mapped_ok.c:20:1 with 2 arguments:
//! Updating data within the OpenMP data region with update_mapper at mapped_ok.c:25:1 with 1 arguments:
//! tofrom(b[10:20])[160]
//! use_address(b)[0] (implicit)
//! firstprivate(s)[4] (implicit)
//! Mapping exists (implicit) with HstPtrBegin=0x.., TgtPtrBegin=0x.., Size=0, DynRefCount=2 (incremented), HoldRefCount=0, Name=b
//! Mapping exists with HstPtrBegin=0x.., TgtPtrBegin=0x.., Size=800, DynRefCount=1 (update suppressed), HoldRefCount=0
//! Copying data from host to device, HstPtr=0x.., TgtPtr=0x.., Size=2048, Name=a[0:256]
//! Copying data from device to host, TgtPtr=0x.., HstPtr=0x.., Size=2048, Name=b[0:256]
//! ```
//!
//! A header (0x1) is followed by exactly its N argument lines, `kind(name)[bytes]` plus
//! ` (implicit)` for implicit maps. The kinds the runtime prints are `tofrom`, `to`, `from`,
//! `private`, `firstprivate` (any literal, including `is_device_ptr` pointers), `alloc`
//! (no to/from bit, non-zero size; also `delete` on exit) and `use_address` (zero size: an
//! implicitly captured pointer, the "zero-length array section"). Without `-g` the location
//! is `unknown:0:0` and every name is `unknown`.
//!
//! After the argument list the runtime maps the arguments. For each argument whose data is
//! already present it prints `Mapping exists[ (implicit)] with ... Name=<name>` (0x2); only these
//! entry-time lines carry `Name=`, the lookups on region exit and update do not. Copies (0x20)
//! follow. Everything up to the next header belongs to that region.

/// Number of copies and bytes moved in one direction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transfer {
    pub copies: u64,
    pub bytes: u64,
}

impl Transfer {
    fn add(&mut self, bytes: u64) {
        self.copies += 1;
        self.bytes += bytes;
    }
}

/// One argument of a kernel launch, as the runtime lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelArg {
    /// The map expression as clang recorded it: `a`, `b[10:20]`, `this->data[0:N]`, or
    /// `unknown` (struct entries, or a build without `-g`).
    pub name: String,
    /// `tofrom`, `to`, `from`, `alloc`, `private`, `firstprivate` or `use_address`.
    pub kind: String,
    /// Bytes mapped for this argument (the `[N]` suffix); 0 for `use_address`.
    pub size: u64,
    /// The argument was mapped implicitly (`(implicit)` suffix).
    pub implicit: bool,
    /// The argument's data is available on the device when the kernel runs. Always true except
    /// for a `use_address` argument that the runtime did not find present (see
    /// [`UnmappedUse`]).
    pub present: bool,
    /// The runtime printed `Mapping exists ... Name=<name>` for this argument at launch: its
    /// data was already on the device (mapped by an enclosing region or an earlier
    /// `target enter data`), so the launch allocated and copied nothing for it.
    pub existed: bool,
}

/// One `Entering OpenMP kernel` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelLaunch {
    /// `file:line` of the target construct (file name without directories, as the runtime
    /// prints it); `None` for a build without `-g`.
    pub location: Option<String>,
    pub args: Vec<KernelArg>,
    /// Copies made for this launch (entry and exit), host to device.
    pub h2d: Transfer,
    /// Copies made for this launch (entry and exit), device to host.
    pub d2h: Transfer,
}

/// An implicitly captured pointer (`use_address`) whose data was not present on the device
/// at a kernel launch: on a real GPU the kernel would dereference a host address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnmappedUse {
    pub kernel_location: Option<String>,
    pub name: String,
}

/// Everything extracted from one stderr log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InfoLog {
    pub h2d: Transfer,
    pub d2h: Transfer,
    pub kernels: Vec<KernelLaunch>,
    pub unmapped: Vec<UnmappedUse>,
    /// Data-region events (`target data` entry/exit, `target enter/exit data`,
    /// `target update`) in order, with the copies each made.
    pub data_ops: Vec<DataOp>,
}

/// What kind of data-movement construct a [`DataOp`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataOpKind {
    /// `target data` entry or `target enter data` (`being_mapper`, sic).
    Begin,
    /// `target data` exit or `target exit data` (`end_mapper`).
    End,
    /// `target update` (`update_mapper`).
    Update,
}

/// One data-region event with the copies it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataOp {
    pub kind: DataOpKind,
    pub location: Option<String>,
    pub args: Vec<KernelArg>,
    pub h2d: Transfer,
    pub d2h: Transfer,
}

/// The part of a line after `omptarget device <N> info: `, if it is an INFO line.
fn info_payload(line: &str) -> Option<&str> {
    let rest = line.trim_end_matches(['\r', '\n']);
    let rest = rest.strip_prefix("omptarget device ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    rest[digits..].strip_prefix(" info: ")
}

enum Header {
    Kernel,
    Data(DataOpKind),
}

/// `<head> at <file>:<line>:<col> with <n> arguments:` → (kind, location, n).
fn parse_header(payload: &str) -> Option<(Header, Option<String>, usize)> {
    let body = payload.trim_end().strip_suffix(" arguments:")?;
    let (head, n) = body.rsplit_once(" with ")?;
    let n: usize = n.trim().parse().ok()?;
    let (what, loc) = head.rsplit_once(" at ")?;
    let kind = if what == "Entering OpenMP kernel" {
        Header::Kernel
    } else if what.starts_with("Entering OpenMP data region with ") {
        Header::Data(DataOpKind::Begin)
    } else if what.starts_with("Exiting OpenMP data region with ") {
        Header::Data(DataOpKind::End)
    } else if what.starts_with("Updating data within the OpenMP data region with ") {
        Header::Data(DataOpKind::Update)
    } else {
        return None;
    };
    Some((kind, parse_location(loc), n))
}

/// `file.c:12:3` → `file.c:12`; `unknown:0:0` → None.
fn parse_location(loc: &str) -> Option<String> {
    let (file_line, _col) = loc.rsplit_once(':')?;
    let (file, line) = file_line.rsplit_once(':')?;
    if file == "unknown" || file.is_empty() || line.parse::<u64>().ok()? == 0 {
        return None;
    }
    Some(format!("{file}:{line}"))
}

/// `kind(name)[size] (implicit)` (the runtime's `%s(%s)[%ld] %s`). The name may itself
/// contain brackets and parentheses, so the line is taken apart from both ends.
fn parse_arg(payload: &str) -> Option<KernelArg> {
    let mut s = payload.trim_end();
    let implicit = match s.strip_suffix("(implicit)") {
        Some(rest) => {
            s = rest.trim_end();
            true
        }
        None => false,
    };
    let s = s.strip_suffix(']')?;
    let (head, size) = s.rsplit_once('[')?;
    let size: u64 = size.parse().ok()?;
    let head = head.strip_suffix(')')?;
    let (kind, name) = head.split_once('(')?;
    if kind.is_empty() || !kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
        return None;
    }
    Some(KernelArg {
        name: name.to_string(),
        kind: kind.to_string(),
        size,
        implicit,
        present: true,
        existed: false,
    })
}

/// The value of `key=` in a comma-separated INFO line (`Size=`, `Name=`). `Name=` is always
/// last, so its value runs to the end of the line.
fn field<'a>(payload: &'a str, key: &str) -> Option<&'a str> {
    let needle = format!(", {key}=");
    let start = payload.find(&needle)? + needle.len();
    let rest = &payload[start..];
    if key == "Name" {
        Some(rest.trim_end())
    } else {
        Some(rest.split(',').next().unwrap_or(rest).trim())
    }
}

/// The variable a map expression is rooted at: `y[0:100]` → `y`, `s.v[0:8]` → `s.v`.
fn base_name(name: &str) -> &str {
    name.split('[').next().unwrap_or(name).trim()
}

enum Current {
    None,
    Kernel(usize),
    Data(usize),
}

struct Open {
    current: Current,
    pending_args: usize,
    /// Names from entry-time `Mapping exists ... Name=` lines of the open kernel.
    existing: Vec<String>,
}

/// Parses the stderr of a run with `LIBOMPTARGET_INFO=35`. Lines that are not INFO lines
/// (the program's own stderr, `omptarget message:` lines) are ignored.
pub fn parse_info_log(stderr: &str) -> InfoLog {
    let mut log = InfoLog::default();
    let mut open = Open {
        current: Current::None,
        pending_args: 0,
        existing: Vec::new(),
    };
    for line in stderr.lines() {
        let Some(payload) = info_payload(line) else {
            continue;
        };
        if let Some((header, location, n)) = parse_header(payload) {
            close_kernel(&mut log, &mut open);
            open.pending_args = n;
            open.current = match header {
                Header::Kernel => {
                    log.kernels.push(KernelLaunch {
                        location,
                        args: Vec::with_capacity(n),
                        h2d: Transfer::default(),
                        d2h: Transfer::default(),
                    });
                    Current::Kernel(log.kernels.len() - 1)
                }
                Header::Data(kind) => {
                    log.data_ops.push(DataOp {
                        kind,
                        location,
                        args: Vec::with_capacity(n),
                        h2d: Transfer::default(),
                        d2h: Transfer::default(),
                    });
                    Current::Data(log.data_ops.len() - 1)
                }
            };
            continue;
        }
        if open.pending_args > 0 {
            if let Some(arg) = parse_arg(payload) {
                open.pending_args -= 1;
                match open.current {
                    Current::Kernel(i) => log.kernels[i].args.push(arg),
                    Current::Data(i) => log.data_ops[i].args.push(arg),
                    Current::None => {}
                }
                continue;
            }
            // Not an argument line: the list was cut short; stop expecting one.
            open.pending_args = 0;
        }
        if payload.starts_with("Mapping exists") {
            if let (Current::Kernel(_), Some(name)) = (&open.current, field(payload, "Name")) {
                open.existing.push(name.to_string());
            }
            continue;
        }
        let to_device = payload.starts_with("Copying data from host to device,");
        let from_device = payload.starts_with("Copying data from device to host,");
        if to_device || from_device {
            // The AMDGPU plugin copies its own launch environment; that is not program data.
            if field(payload, "Name") == Some("KernelLaunchEnv") {
                continue;
            }
            let Some(bytes) = field(payload, "Size").and_then(|s| s.parse::<u64>().ok()) else {
                continue;
            };
            let (total, region) = match (&open.current, to_device) {
                (Current::Kernel(i), true) => (&mut log.h2d, Some(&mut log.kernels[*i].h2d)),
                (Current::Kernel(i), false) => (&mut log.d2h, Some(&mut log.kernels[*i].d2h)),
                (Current::Data(i), true) => (&mut log.h2d, Some(&mut log.data_ops[*i].h2d)),
                (Current::Data(i), false) => (&mut log.d2h, Some(&mut log.data_ops[*i].d2h)),
                (Current::None, true) => (&mut log.h2d, None),
                (Current::None, false) => (&mut log.d2h, None),
            };
            total.add(bytes);
            if let Some(r) = region {
                r.add(bytes);
            }
        }
    }
    close_kernel(&mut log, &mut open);
    log
}

/// Settles presence for the open kernel's arguments and records its unmapped uses.
fn close_kernel(log: &mut InfoLog, open: &mut Open) {
    let existing = std::mem::take(&mut open.existing);
    let Current::Kernel(i) = std::mem::replace(&mut open.current, Current::None) else {
        return;
    };
    let kernel = &mut log.kernels[i];
    let explicit_bases: Vec<String> = kernel
        .args
        .iter()
        .filter(|a| a.kind != "use_address" && !a.implicit && a.name != "unknown")
        .map(|a| base_name(&a.name).to_string())
        .collect();
    for arg in &mut kernel.args {
        arg.existed = arg.name != "unknown" && existing.contains(&arg.name);
        if arg.kind == "use_address" {
            arg.present = arg.existed || explicit_bases.contains(&arg.name);
            if !arg.present {
                log.unmapped.push(UnmappedUse {
                    kernel_location: kernel.location.clone(),
                    name: arg.name.clone(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_lines() {
        let a = parse_arg("tofrom(b[10:20])[160] ").unwrap();
        assert_eq!(
            (a.kind.as_str(), a.name.as_str(), a.size, a.implicit),
            ("tofrom", "b[10:20]", 160, false)
        );
        let a = parse_arg("use_address(y)[0] (implicit)").unwrap();
        assert_eq!(
            (a.kind.as_str(), a.name.as_str(), a.size, a.implicit),
            ("use_address", "y", 0, true)
        );
        let a = parse_arg("tofrom(this->heap[0:this->n])[512] ").unwrap();
        assert_eq!(a.name, "this->heap[0:this->n]");
        let a = parse_arg("to((*p).v[0:(n)])[8] (implicit)").unwrap();
        assert_eq!((a.kind.as_str(), a.name.as_str()), ("to", "(*p).v[0:(n)]"));
        assert!(parse_arg("Copying data from host to device, Size=8").is_none());
    }

    #[test]
    fn headers_and_locations() {
        let (h, loc, n) =
            parse_header("Entering OpenMP kernel at t1.c:8:3 with 4 arguments:").unwrap();
        assert!(matches!(h, Header::Kernel));
        assert_eq!((loc.as_deref(), n), (Some("t1.c:8"), 4));
        let (h, loc, _) =
            parse_header("Entering OpenMP kernel at unknown:0:0 with 1 arguments:").unwrap();
        assert!(matches!(h, Header::Kernel));
        assert_eq!(loc, None);
        let (h, _, _) =
            parse_header("Updating data within the OpenMP data region with update_mapper at a.c:24:5 with 1 arguments:")
                .unwrap();
        assert!(matches!(h, Header::Data(DataOpKind::Update)));
    }

    #[test]
    fn unmapped_unless_present_or_explicit() {
        let log = "\
omptarget device 0 info: Entering OpenMP kernel at k.c:5:1 with 3 arguments:
omptarget device 0 info: use_address(p)[0] (implicit)
omptarget device 0 info: use_address(q)[0] (implicit)
omptarget device 0 info: use_address(r)[0] (implicit)
omptarget device 0 info: Mapping exists (implicit) with HstPtrBegin=0x1, TgtPtrBegin=0x2, Size=0, DynRefCount=2 (incremented), HoldRefCount=0, Name=q
program noise on stderr
omptarget device 0 info: Entering OpenMP kernel at k.c:9:1 with 2 arguments:
omptarget device 0 info: use_address(p)[0] (implicit)
omptarget device 0 info: tofrom(p[0:4])[32] 
omptarget device 0 info: Copying data from host to device, HstPtr=0x1, TgtPtr=0x2, Size=32, Name=p[0:4]
";
        let parsed = parse_info_log(log);
        let names: Vec<_> = parsed
            .unmapped
            .iter()
            .map(|u| (u.kernel_location.as_deref(), u.name.as_str()))
            .collect();
        assert_eq!(names, vec![(Some("k.c:5"), "p"), (Some("k.c:5"), "r")]);
        assert!(parsed.kernels[0].args[1].present && parsed.kernels[0].args[1].existed);
        assert_eq!(
            parsed.kernels[1].h2d,
            Transfer {
                copies: 1,
                bytes: 32
            }
        );
        assert_eq!(
            parsed.h2d,
            Transfer {
                copies: 1,
                bytes: 32
            }
        );
    }
}
