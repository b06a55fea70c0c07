//! OMP206: device memory allocated and freed on every iteration of a host loop.

use super::copy_in_loop::{hoistable, loop_finding};
use super::Context;
use crate::check::Finding;

pub fn findings(cx: &Context) -> Vec<Finding> {
    hoistable(cx)
        .into_iter()
        .filter(|h| h.copies == 0)
        .map(|h| loop_finding(cx, &h, "OMP206"))
        .collect()
}
