//! OMP109: a `target update` of data that is not mapped copies nothing.

use super::common::{facts, finding};
use super::Context;
use crate::check::env::FactKind;
use crate::check::Finding;

pub fn findings(cx: &Context) -> Vec<Finding> {
    facts(cx, |f| matches!(f.kind, FactKind::UpdateNotPresent { .. }))
        .map(|f| {
            finding(
                "OMP109",
                f.certain,
                f.span,
                format!(
                    "`{}` is not mapped here, so this `target update` copies nothing",
                    f.name
                ),
            )
        })
        .collect()
}
