//! Open documents: text and version per URI, incremental edits, and the latest analysis.
//!
//! Handlers run concurrently (up to four at once), so a `didChange` can be handled after a
//! newer one: every change carries the document's version and one that is not newer than
//! what we hold is ignored. No guard of the map is ever held across an `.await`.

use super::analysis::Analysed;
use dashmap::DashMap;
use omplens_analysis::text::LineIndex;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};

pub struct Document {
    pub version: i32,
    pub text: String,
    /// The analysis of the latest version that finished (maybe of an older version).
    pub analysis: Option<Arc<Analysed>>,
    /// The version (and settings generation) an analysis is running for, if any.
    pub running: Option<(i32, u64)>,
    /// Woken whenever `analysis` changes (requests wait on it for the current version).
    pub analysed: watch::Sender<Option<Arc<Analysed>>>,
    /// When the text last changed (opened or edited): how long the user has paused.
    pub changed_at: Instant,
}

/// What became of a `didChange`.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Applied; the text had not changed for `quiet_for` before it. `idle`: the version it
    /// replaced had been analysed and no analysis was running (nothing of a burst pending).
    Applied {
        quiet_for: Duration,
        idle: bool,
    },
    /// Not newer than the version we have: ignored.
    Stale {
        have: i32,
    },
    Unknown,
}

#[derive(Default)]
pub struct Documents {
    map: DashMap<Uri, Document>,
}

impl Documents {
    pub fn open(&self, uri: Uri, version: i32, text: String) {
        let (analysed, _) = watch::channel(None);
        self.map.insert(
            uri,
            Document {
                version,
                text,
                analysis: None,
                running: None,
                analysed,
                changed_at: Instant::now(),
            },
        );
    }

    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Change {
        let Some(mut doc) = self.map.get_mut(uri) else {
            return Change::Unknown;
        };
        if version <= doc.version {
            return Change::Stale { have: doc.version };
        }
        let idle = doc.running.is_none()
            && doc
                .analysis
                .as_ref()
                .is_some_and(|a| a.version == doc.version);
        apply_changes(&mut doc.text, changes);
        doc.version = version;
        let now = Instant::now();
        let quiet_for = now.duration_since(doc.changed_at);
        doc.changed_at = now;
        Change::Applied { quiet_for, idle }
    }

    /// Forgets the document and everything computed for it.
    pub fn close(&self, uri: &Uri) -> bool {
        self.map.remove(uri).is_some()
    }

    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.map.get(uri).map(|d| d.version)
    }

    pub fn uris(&self) -> Vec<Uri> {
        self.map.iter().map(|e| e.key().clone()).collect()
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Runs `f` on the document while holding its entry (never across an await).
    pub fn with<R>(&self, uri: &Uri, f: impl FnOnce(&mut Document) -> R) -> Option<R> {
        self.map.get_mut(uri).map(|mut d| f(&mut d))
    }
}

/// Applies LSP content changes in order: a change with a range replaces that range (UTF-16
/// positions into the text as the previous changes left it); one without replaces the text.
pub fn apply_changes(text: &mut String, changes: Vec<TextDocumentContentChangeEvent>) {
    for c in changes {
        match c.range {
            None => *text = c.text,
            Some(r) => {
                let index = LineIndex::new(text);
                let offset = |p: Position| index.utf16_offset(text, p.line, p.character) as usize;
                let start = offset(r.start);
                let end = offset(r.end).max(start);
                text.replace_range(start..end, &c.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::Range;

    fn edit(l0: u32, c0: u32, l1: u32, c1: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn incremental_edits_apply_in_order() {
        let mut t = "int a;\nint b;\n".to_string();
        apply_changes(
            &mut t,
            vec![edit(0, 4, 0, 5, "xy"), edit(1, 0, 1, 0, "// c\n")],
        );
        assert_eq!(t, "int xy;\n// c\nint b;\n");
    }

    #[test]
    fn utf16_ranges() {
        let mut t = "/* 𝄞 */ a = 1;\n".to_string();
        // `a` is at UTF-16 column 9 (the clef takes two units, four bytes).
        apply_changes(&mut t, vec![edit(0, 9, 0, 10, "b")]);
        assert_eq!(t, "/* 𝄞 */ b = 1;\n");
    }

    #[test]
    fn full_replacement_and_ranges_past_the_end() {
        let mut t = "abc".to_string();
        apply_changes(
            &mut t,
            vec![
                TextDocumentContentChangeEvent {
                    range: None,
                    range_length: None,
                    text: "xyz\n".into(),
                },
                edit(5, 0, 9, 0, "end"),
            ],
        );
        assert_eq!(t, "xyz\nend");
    }

    #[test]
    fn older_versions_are_ignored() {
        let docs = Documents::default();
        let uri: Uri = "file:///t.c".parse().unwrap();
        docs.open(uri.clone(), 1, "a".into());
        assert!(matches!(
            docs.change(&uri, 3, vec![edit(0, 1, 0, 1, "c")]),
            Change::Applied { .. }
        ));
        assert_eq!(
            docs.change(&uri, 2, vec![edit(0, 1, 0, 1, "b")]),
            Change::Stale { have: 3 }
        );
        assert_eq!(docs.with(&uri, |d| d.text.clone()).unwrap(), "ac");
        assert!(docs.close(&uri));
        assert_eq!(docs.change(&uri, 4, vec![]), Change::Unknown);
        assert_eq!(docs.len(), 0);
    }
}
