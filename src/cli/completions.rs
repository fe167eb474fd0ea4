//! `tangle completions SHELL`.

use clap::{Args, CommandFactory};
use clap_complete::Shell;
use tangle::Result;

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle completions bash > /etc/bash_completion.d/tangle\n  tangle completions zsh > ~/.zfunc/_tangle"
)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

pub fn run(a: &CompletionsArgs) -> Result<u8> {
    // Generate into memory: clap_complete panics when its writer fails (closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut super::Cli::command(), "tangle", &mut script);
    super::write_stdout(&script)?;
    Ok(0)
}
