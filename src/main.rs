//! The `temple-trails` binary: everything happens in the library's command line.

fn main() -> std::process::ExitCode {
    temple_trails::cli::main()
}
