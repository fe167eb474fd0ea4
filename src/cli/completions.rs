//! `tangle completions SHELL`.

use clap::{Args, CommandFactory};
use clap_complete::Shell;
use tangle::Result;

#[derive(Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

pub fn run(a: &CompletionsArgs) -> Result<u8> {
    clap_complete::generate(
        a.shell,
        &mut super::Cli::command(),
        "tangle",
        &mut std::io::stdout(),
    );
    Ok(0)
}
