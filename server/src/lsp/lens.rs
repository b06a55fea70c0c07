//! Code lenses: above each kernel, the bytes one launch moves each way.

use super::actions::SHOW_PLAN;
use super::analysis::FileAnalysis;
use super::convert::LineIndex;
use tower_lsp_server::ls_types::{CodeLens, Command, Uri};

pub fn lenses(uri: &Uri, index: &LineIndex, fa: &FileAnalysis) -> Vec<CodeLens> {
    fa.view()
        .kernels()
        .map(|k| {
            let t = k.traffic();
            let upto = if t.conditional { "up to " } else { "" };
            let title = format!(
                "per launch: {upto}{} to the device, {upto}{} to the host",
                one_way(t.to_device, t.copies_to_device, t.unknown_to_device),
                one_way(t.to_host, t.copies_to_host, t.unknown_to_host),
            );
            CodeLens {
                range: index.range(k.span.start, k.span.start),
                command: Some(Command::new(
                    title,
                    SHOW_PLAN.into(),
                    Some(vec![
                        serde_json::to_value(uri).unwrap_or_default(),
                        serde_json::json!({"show": true}),
                    ]),
                )),
                data: None,
            }
        })
        .collect()
}

/// `4000 B (1 copy)`, `2 copies (sizes not known statically)`, `nothing`.
pub fn one_way(bytes: u64, copies: usize, unknown: usize) -> String {
    let n = |k: usize| format!("{k} cop{}", if k == 1 { "y" } else { "ies" });
    match (copies, unknown) {
        (0, _) => "nothing".into(),
        (c, 0) => format!("{bytes} B ({})", n(c)),
        (c, u) if u == c => format!("{} (size not known statically)", n(c)),
        (c, u) => format!("{bytes} B + {u} of unknown size ({})", n(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::one_way;

    #[test]
    fn traffic_in_words() {
        assert_eq!(one_way(0, 0, 0), "nothing");
        assert_eq!(one_way(4000, 1, 0), "4000 B (1 copy)");
        assert_eq!(one_way(0, 2, 2), "2 copies (size not known statically)");
        assert_eq!(one_way(8, 3, 1), "8 B + 1 of unknown size (3 copies)");
    }
}
