//! Writing results to files without ever losing what was there.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `target` so that a reader never sees a half-written file: a temporary
/// file beside the real file, then a rename over it, keeping the original's permissions.
/// A symbolic link is followed (the link stays, its target is replaced). Something that is
/// not a regular file (`-o /dev/null`, a FIFO) is written in place: renaming over it would
/// replace the device node with a plain file.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    let real = resolve(target)?;
    if let Ok(meta) = std::fs::metadata(&real) {
        if !meta.is_file() {
            return std::fs::write(&real, bytes)
                .with_context(|| format!("writing {}", target.display()));
        }
    }
    let dir = match real.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(&real) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(&real)
        .with_context(|| format!("replacing {}", target.display()))?;
    Ok(())
}

/// The file a path names once symbolic links are followed; a path that does not exist yet
/// is taken as it is.
fn resolve(target: &Path) -> Result<PathBuf> {
    match std::fs::symlink_metadata(target) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(target)
            .with_context(|| format!("following the link {}", target.display())),
        _ => Ok(target.to_path_buf()),
    }
}
