//! One module per subcommand.

pub mod check;
pub mod explain;
pub mod fix;
pub mod ir;
mod load;
mod write;
