//! The runtime error of the rules ([`Fault`]) and how it comes to name its
//! place in the rules file.

/// A runtime error of the rules: its message, boxed so that results stay
/// two words wide on the hot paths (compiled code passes it behind one
/// more pointer, see `compile::Thin`).
///
/// An error is made where it happens (`"division by zero in `//`"`) and
/// located on its way out: the innermost conditional action being run
/// when it surfaces puts its line and column in front of the message
/// (`Machine::locate`), and the forms around it leave it so. Every error
/// made with `From<String>` or `From<&str>` is located so, by the
/// evaluator and the compiled code alike. A located message is kept with
/// a NUL byte in front (no message is written with one), which is how the
/// forms around it know; it is never shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(Box<str>);

/// What a located message is kept with in front (see [`Fault`]).
const LOCATED: char = '\0';

impl Fault {
    /// Whether the message already names its place in the rules file.
    pub fn is_located(&self) -> bool {
        self.0.starts_with(LOCATED)
    }

    /// The error with `place` (such as `line 3, column 5`) in front of its
    /// message, unless it has a place already.
    #[cold]
    pub fn at_place(self, place: &str) -> Fault {
        if self.is_located() {
            return self;
        }
        Fault(format!("{LOCATED}{place}: {}", self.0).into_boxed_str())
    }

    /// The message.
    pub fn message(&self) -> &str {
        self.0.strip_prefix(LOCATED).unwrap_or(&self.0)
    }
}

impl From<String> for Fault {
    #[cold]
    fn from(message: String) -> Fault {
        Fault(message.into_boxed_str())
    }
}

impl From<&str> for Fault {
    #[cold]
    fn from(s: &str) -> Fault {
        Fault(s.into())
    }
}

impl From<Fault> for String {
    fn from(f: Fault) -> String {
        f.message().to_string()
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}
