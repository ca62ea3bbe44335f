//! The command line's one error type: a one-line message and the exit code it ends with.

use std::fmt;
use std::process::ExitCode;

/// Exit code of a run that did what was asked (also when the reader of its output went away).
pub const EXIT_SUCCESS: u8 = 0;
/// Exit code of a run that could not finish: a file could not be written, the field left too
/// little room, or a result failed its check.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of a run refused for its arguments.
pub const EXIT_USAGE: u8 = 2;

/// Why a command did not finish, and with which exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// [`EXIT_FAILURE`] or [`EXIT_USAGE`].
    pub code: u8,
    /// One line for the person at the terminal.
    pub message: String,
}

impl CliError {
    /// A run that could not finish.
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_FAILURE,
            message: message.into(),
        }
    }

    /// Arguments that cannot be used together, beyond what the argument parser checks.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    /// The process's exit code.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}
