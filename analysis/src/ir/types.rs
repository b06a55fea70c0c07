//! Types of variables, as much as data mapping needs: shape, size and const-ness.

#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    /// As clang spells it, e.g. `double *`, `const float[16]`.
    pub spelling: String,
    pub kind: TypeKind,
    /// Size in bytes when known (not for incomplete or dependent types).
    pub size: Option<u64>,
    pub is_const: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Void,
    Bool,
    Integer,
    Floating,
    Enum,
    Pointer(Box<Type>),
    /// `T &` or `T &&`.
    Reference(Box<Type>),
    /// Constant-size array (`len` Some) or incomplete/variable-length array.
    Array {
        element: Box<Type>,
        len: Option<u64>,
    },
    /// struct, union or class, by name.
    Record(String),
    Function,
    /// Depends on a template parameter.
    Dependent,
    Other,
}

impl Type {
    pub fn unknown(spelling: impl Into<String>) -> Type {
        Type {
            spelling: spelling.into(),
            kind: TypeKind::Other,
            size: None,
            is_const: false,
        }
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self.kind, TypeKind::Pointer(_))
    }
    /// A reference to a pointer (`T *&`): its value is the referred pointer, not data.
    pub fn is_pointer_reference(&self) -> bool {
        matches!(self.kind, TypeKind::Reference(_)) && self.referent().is_pointer()
    }
    pub fn is_array(&self) -> bool {
        matches!(self.kind, TypeKind::Array { .. })
    }
    /// Scalars are what OpenMP maps `firstprivate` by default on a kernel.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self.kind,
            TypeKind::Bool | TypeKind::Integer | TypeKind::Floating | TypeKind::Enum
        )
    }
    /// The type seen through references.
    pub fn referent(&self) -> &Type {
        match &self.kind {
            TypeKind::Reference(t) => t.referent(),
            _ => self,
        }
    }
    /// Short description used by `omplens ir`.
    pub fn shape(&self) -> &'static str {
        match self.kind {
            TypeKind::Void => "void",
            TypeKind::Bool | TypeKind::Integer | TypeKind::Floating | TypeKind::Enum => "scalar",
            TypeKind::Pointer(_) => "pointer",
            TypeKind::Reference(_) => "reference",
            TypeKind::Array { .. } => "array",
            TypeKind::Record(_) => "record",
            TypeKind::Function => "function",
            TypeKind::Dependent => "dependent",
            TypeKind::Other => "other",
        }
    }
}
