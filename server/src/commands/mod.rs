//! One module per subcommand.

pub mod fix;
pub mod ir;
mod load;
mod write;
