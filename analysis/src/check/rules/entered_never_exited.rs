//! OMP108: data entered with `target enter data` is never exited before its lifetime ends.

use super::common::{facts, finding, paths};
use super::Context;
use crate::check::env::FactKind;
use crate::check::Finding;

pub fn findings(cx: &Context) -> Vec<Finding> {
    facts(cx, |f| matches!(f.kind, FactKind::NeverExited { .. }))
        .map(|f| {
            finding(
                "OMP108",
                f.certain,
                f.span,
                format!(
                    "`{}` is mapped by this `target enter data` and never unmapped{} before the end of `{}`: its device memory is never released",
                    f.name,
                    paths(f.certain),
                    cx.module.function(f.func).name
                ),
            )
        })
        .collect()
}
