//! One module per subcommand.

pub mod ir;
mod load;
pub mod fix;
