# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_tangle_global_optspecs
    string join \n r/repo= P/profile= password-file= password-command= json q/quiet v/verbose no-progress progress cache-dir= owner= retry-lock= limit-upload= limit-download= h/help V/version
end

function __fish_tangle_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_tangle_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_tangle_using_subcommand
    set -l cmd (__fish_tangle_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c tangle -n "__fish_tangle_needs_command" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_needs_command" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_needs_command" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_needs_command" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_needs_command" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_needs_command" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_needs_command" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_needs_command" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_needs_command" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_needs_command" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_needs_command" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_needs_command" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_needs_command" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_needs_command" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_needs_command" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_needs_command" -s V -l version -d 'Print version'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "init" -d 'Create a repository over one or more remotes'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "backup" -d 'Back up files and directories into a new snapshot'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "snapshots" -d 'List snapshots'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "ls" -d 'List the files in a snapshot'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "restore" -d 'Restore a snapshot (or a path in it) under a target directory'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "dump" -d 'Write a file of a snapshot, or a directory as a tar archive, to standard output'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "mount" -d 'Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "verify" -d 'Check the repository on every remote (needs no password)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "repair" -d 'Rebuild missing or damaged shards and metadata copies (needs no password)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "delete" -d 'Delete snapshots and reclaim their space, re-encoding what pointed into it'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "prune" -d 'Remove what interrupted runs left behind (nothing else)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "tag" -d 'Add, remove or set the tags of snapshots (each changed one is replaced by a copy)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "rewrite" -d 'Write new snapshots without the paths matching exclude patterns (--forget: delete the old)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "copy" -d 'Copy snapshots from another repository (--from-repo) into this one'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "import" -d 'Import another tool\'s history: `import restic` brings a restic repository\'s snapshots'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "unlock" -d 'Remove stale locks (left by a backup or delete that died)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "key" -d 'List, add, remove or change the passwords (key files) of the repository'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "remote" -d 'List, add or replace remotes'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "writer" -d 'Add, list or revoke writer keys: backup hosts that may add history, never read or delete it'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "find" -d 'Find files and directories by glob pattern in the snapshots'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "diff" -d 'Show what changed between two snapshots'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "stats" -d 'Sizes, dedup and compression of snapshots; storage per remote'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "cat" -d 'Print a repository object, decoded and checked, as JSON (for debugging)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "man" -d 'Write the man pages into a directory'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "profile" -d 'Show the settings a profile gives (`profile show`)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "run" -d 'Run the profile\'s backup, then delete by its policy, then verify (for cron)'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "version" -d 'Show the version, target, features and the repository format versions'
complete -c tangle -n "__fish_tangle_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand init" -l remote -d 'A remote of the new repository (give it once per remote; 3 are recommended; default: the profile\'s [repository] remotes)' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l data-shards -d 'Data shards per extent (default from the number of remotes)' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l parity-shards -d 'Parity shards per extent' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l pointers -d 'Pointer shards (entanglement with older extents) per extent; 0 is plain Reed-Solomon' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand init" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand init" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand init" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand init" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand init" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand init" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand init" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand init" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s e -l exclude -d 'Skip paths matching GLOB (a name like `*.o`, or an absolute path pattern)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l exclude-file -d 'Read exclude patterns from a file (one per line, # comments)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l iexclude -d 'As --exclude, ignoring case' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l iexclude-file -d 'As --exclude-file, ignoring case' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l exclude-if-present -d 'Skip the contents of directories holding FILE, or FILE starting with HEADER (FILE is kept); repeatable' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l exclude-larger-than -d 'Skip files larger than SIZE (bytes, or with K, M, G, T: 500K, 2M, 1G)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l files-from -d 'Read the paths to back up from FILE (one path or glob pattern a line, # comments; - is stdin); repeatable' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l files-from-verbatim -d 'Read the paths to back up from FILE, one a line, taken literally; repeatable' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l files-from-raw -d 'Read the paths to back up from FILE, separated by NUL bytes; repeatable' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l stdin-filename -d 'The stdin file\'s path in the snapshot (default: stdin, recorded as /stdin)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l tag -d 'Tag the snapshot (comma-separated, as restic\'s; repeatable)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l host -d 'Host name to record (default: this machine\'s)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l upload-queue -d 'Extents a slow remote may fall behind by before the backup waits for it (1-64, default 1; each holds about 28 MiB of memory with the default coding; raise it when one remote is much slower than the others)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l writer-key -d 'Back up with this writer key file (from `tangle writer add`) instead of the password: the run can add history but read none, and delete nothing' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l exclude-caches -d 'Skip the contents of directories holding a valid CACHEDIR.TAG (the tag is kept)'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s x -l one-file-system -d 'Stay on the file system of each source: do not descend into mount points'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l stdin -d 'Back up what is read from stdin, as one file'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l stdin-from-command -d 'Back up the output of the command given after `--` as one file (the backup fails if the command does not exit 0)'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s n -l dry-run -d 'Do everything except write to the repository'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l allow-stale -d 'Back up even if the repository is older than this client last saw it (rollback)'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand backup" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l latest -d 'Show only the N newest snapshots of each group (without --group-by: of all)' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l group-by -d 'Group the snapshots by these fields: host, paths and/or tags, comma-separated (\'\' for one group); each group is printed under a header, and --json prints [{"group_key", "snapshots"}]' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s c -l compact -d 'One line per snapshot without the paths column'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand snapshots" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s l -l long -d 'Show type, mode, size and time'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand ls" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s t -l target -d 'Directory to restore into; paths are recreated below it as they were backed up' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s i -l include -d 'Restore only paths matching GLOB (repeatable)' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s e -l exclude -d 'Skip paths matching GLOB (repeatable)' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l overwrite -d 'What to do with a file, symlink or special file already at a restored path: always replace it; if-changed: replace a file unless it has the snapshot\'s size and mtime (then set only its metadata); if-newer: replace it if the snapshot\'s mtime is later; never: keep it' -r -f -a "always\t''
if-changed\t''
if-newer\t''
never\t''"
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l verify -d 'Read the restored files back and check them against the snapshot'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s n -l dry-run -d 'Say how many files and bytes would be restored (and kept, and deleted); write nothing'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l delete -d 'Delete what is in the target but not in the snapshot, below the restored paths (with --include/--exclude, only what they select); never outside the target'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand restore" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l archive -d 'Archive format of a directory dump: `tar` or `zip`' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s t -l target -d 'Write to this file instead of standard output' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand dump" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand dump" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand mount" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l allow-other -d 'Let other users than the one mounting in (FUSE\'s allow_other: root, or with `user_allow_other` in /etc/fuse.conf)'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand mount" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l read-data-subset -d 'Read part of the extents: a random share (`10%`), group n of t by extent name (`1/7`; 1/7 to 7/7 read each extent once), or random extents up to a size (`500M`); at least one extent' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l seed -d 'Seed of the sample (to reproduce it; `n/t` draws nothing)' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l read-data -d 'Download every shard, check its hash and that parity matches data and pointers'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand verify" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand repair" -s n -l dry-run -d 'Print the plan and the bytes it would move; change nothing'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l read-data -d 'First download and hash every shard, to also find corruption a listing cannot see'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand repair" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-last -d 'Keep the last N snapshots (per group)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-hourly -d 'Keep the last snapshot of each of the last N hours with snapshots' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-daily -d 'Keep the last snapshot of each of the last N days with snapshots' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-weekly -d 'Keep the last snapshot of each of the last N ISO weeks with snapshots' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-monthly -d 'Keep the last snapshot of each of the last N months with snapshots' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-yearly -d 'Keep the last snapshot of each of the last N years with snapshots' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-within -d 'Keep snapshots newer than DURATION before the newest one (e.g. 1y5m7d2h)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l keep-tag -d 'Keep snapshots with these tags (comma-separated: all of them; repeat: any list)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l group-by -d 'Group snapshots by these fields before applying the policy' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l host -d 'Only consider snapshots of this host (repeat for several)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l tag -d 'Only consider snapshots with these tags (comma-separated: all of them)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l max-unused -d 'Unused space to tolerate in partly used extents before repacking them: a share of the live data (5%), a size (100M) or `unlimited`' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l policy -d 'Use the profile\'s [delete] policy (flags given here win key by key); the default when neither snapshots nor --keep-* options are given and the profile has one'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -s n -l dry-run -d 'Say what would be removed and freed; change nothing'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l allow-degraded -d 'Delete even with remotes unreachable (the next repair removes from them what the deletion names)'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand delete" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand prune" -s n -l dry-run -d 'Say what would be removed, per remote; change nothing (takes no lock, so a backup running meanwhile may show in it)'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand prune" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l add -d 'Add these tags (comma-separated; repeatable)' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l remove -d 'Remove these tags (comma-separated; repeatable)' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l set -d 'Replace every tag by these (comma-separated; repeatable; \'\' for no tags); not with --add or --remove' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s n -l dry-run -d 'Say which snapshots would change and how; change nothing'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand tag" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s e -l exclude -d 'Leave out paths matching PATTERN, as backup\'s --exclude (repeatable)' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l exclude-file -d 'Read exclude patterns from FILE, one per line, as backup\'s --exclude-file (repeatable)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l forget -d 'Delete each rewritten snapshot\'s original (its data stays until `tangle delete` finds it unused)'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s n -l dry-run -d 'Say which snapshots would be rewritten and what would be left out; write nothing'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand rewrite" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l from-repo -d 'The source repository: any one of its remotes (as -r names the destination)' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l from-password-file -d 'Read the source\'s password from this file (first line); TANGLE_FROM_PASSWORD may hold the password itself' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l from-password-command -d 'Run this shell command and use its output as the source\'s password' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l from-owner -d 'Trust only this owner key for the source (its fingerprint), as --owner does for the destination' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s n -l dry-run -d 'Say which snapshots would be copied and which are there already; write nothing'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand copy" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -f -a "restic" -d 'Import the snapshots of a restic repository (in a local directory)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and not __fish_seen_subcommand_from restic help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l from-repo -d 'The restic repository: a local directory (or `local:DIR`)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l from-password-file -d 'Read the restic repository\'s password from this file (first line); RESTIC_PASSWORD may hold the password itself' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l from-password-command -d 'Run this shell command and use its output as the restic repository\'s password' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s n -l dry-run -d 'Say which snapshots would be imported and which are here already; write nothing'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from restic" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from help" -f -a "restic" -d 'Import the snapshots of a restic repository (in a local directory)'
complete -c tangle -n "__fish_tangle_using_subcommand import; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l remove-all -d 'Remove every lock and repair marker, not only stale locks (only when you know no backup, delete or repair runs, on any machine)'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand unlock" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -f -a "list" -d 'List the keys (passwords) of the repository; `*` marks the one that opened it'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -f -a "add" -d 'Add a password: a new key file wrapping the same master key'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -f -a "remove" -d 'Remove a key (password); the last key is never removed'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -f -a "passwd" -d 'Change the password: add a new key, then remove the one in use'
complete -c tangle -n "__fish_tangle_using_subcommand key; and not __fish_seen_subcommand_from list add remove passwd help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l new-password-file -d 'Read the new password from this file (first line); else ask twice on the terminal' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l force -d 'Also remove the key this command opened the repository with'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l allow-degraded -d 'Remove even with remotes unreachable (the next repair removes the key file from them; it never opens the repository meanwhile)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l new-password-file -d 'Read the new password from this file (first line); else ask twice on the terminal' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l allow-degraded -d 'Go on with remotes unreachable (as for `key remove`)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from passwd" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the keys (passwords) of the repository; `*` marks the one that opened it'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add a password: a new key file wrapping the same master key'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove a key (password); the last key is never removed'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "passwd" -d 'Change the password: add a new key, then remove the one in use'
complete -c tangle -n "__fish_tangle_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -f -a "list" -d 'Show the remotes, whether they answer, and what they hold'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -f -a "add" -d 'Add a remote: copy the metadata there and move a share of the existing shards onto it (`rebalance`), so old data gets the same spread as new data'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -f -a "replace" -d 'Replace a dead or retired remote by a new empty one; then run `repair` to fill it'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -f -a "rebalance" -d 'Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and not __fish_seen_subcommand_from list add replace rebalance help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l no-rebalance -d 'Only change the config (new extents use the remote; run `repair` and `remote rebalance` later)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from replace" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -s n -l dry-run -d 'Print what would move without moving anything'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from rebalance" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from help" -f -a "list" -d 'Show the remotes, whether they answer, and what they hold'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add a remote: copy the metadata there and move a share of the existing shards onto it (`rebalance`), so old data gets the same spread as new data'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from help" -f -a "replace" -d 'Replace a dead or retired remote by a new empty one; then run `repair` to fill it'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from help" -f -a "rebalance" -d 'Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)'
complete -c tangle -n "__fish_tangle_using_subcommand remote; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -f -a "add" -d 'Make a writer key for one backup host: it may add snapshots, never read or delete'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -f -a "list" -d 'List the writers (needs no password)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -f -a "revoke" -d 'Revoke a writer: its later heads are refused; what it wrote before stays'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and not __fish_seen_subcommand_from add list revoke help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l out -d 'Write the key here (created, mode 0600; never overwritten); default LABEL.writer-key in the current directory' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from help" -f -a "add" -d 'Make a writer key for one backup host: it may add snapshots, never read or delete'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the writers (needs no password)'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Revoke a writer: its later heads are refused; what it wrote before stays'
complete -c tangle -n "__fish_tangle_using_subcommand writer; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand find" -s s -l snapshot -d 'Search only this snapshot (id, prefix or `latest`); repeatable. Default: every snapshot, newest first' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l path -d 'Search only at or below this path (as backed up)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand find" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand find" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand find" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand find" -s i -l ignore-case -d 'Match regardless of case'
complete -c tangle -n "__fish_tangle_using_subcommand find" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand find" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand find" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand find" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand find" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand find" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand diff" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l metadata -d 'Also show entries whose metadata alone changed (U: mode, owner, mtime, xattrs)'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand diff" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l mode -d 'What `total_size` counts' -r -f -a "restore-size\t'The files as restored, summed over the snapshots'
raw-data\t'The unique blobs the snapshots reference, as stored'"
complete -c tangle -n "__fish_tangle_using_subcommand stats" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand stats" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand stats" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand stats" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand stats" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "config" -d 'The repository config (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "key" -d 'A key file (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "snapshot" -d 'A snapshot record'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "index" -d 'An index segment'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "certificate" -d 'An extent certificate (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "head" -d 'A writer\'s head (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "deletion" -d 'A deletion record (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "tree" -d 'A tree blob (one directory)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "blob" -d 'A data blob: its bytes (with --json: where it is stored and its bytes in base64)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and not __fish_seen_subcommand_from config key snapshot index certificate head deletion tree blob help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from config" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from key" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -s H -l host -d 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l tag -d 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; \'\' matches snapshots without tags); `latest` is the newest of these' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l path -d 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from snapshot" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from index" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from certificate" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from head" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from deletion" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from tree" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from blob" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "config" -d 'The repository config (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "key" -d 'A key file (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "snapshot" -d 'A snapshot record'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "index" -d 'An index segment'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "certificate" -d 'An extent certificate (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "head" -d 'A writer\'s head (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "deletion" -d 'A deletion record (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "tree" -d 'A tree blob (one directory)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "blob" -d 'A data blob: its bytes (with --json: where it is stored and its bytes in base64)'
complete -c tangle -n "__fish_tangle_using_subcommand cat; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand completions" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand completions" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand completions" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand completions" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand completions" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand man" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand man" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand man" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand man" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand man" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand man" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand man" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand man" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand man" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -f -a "show" -d 'Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and not __fish_seen_subcommand_from show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***'
complete -c tangle -n "__fish_tangle_using_subcommand profile; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand run" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand run" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand run" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand run" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand run" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand run" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand run" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand run" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand run" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand version" -s r -l repo -d 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -s P -l profile -d 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -l password-file -d 'Read the password from this file (first line)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand version" -l password-command -d 'Run this shell command and use its output as the password' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -l cache-dir -d 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)' -r -F
complete -c tangle -n "__fish_tangle_using_subcommand version" -l owner -d 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -l retry-lock -d 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -l limit-upload -d 'Upload at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -l limit-download -d 'Download at most this many KiB/s, over all remotes together' -r
complete -c tangle -n "__fish_tangle_using_subcommand version" -l json -d 'Machine-readable output on stdout (and fatal errors as JSON on stderr)'
complete -c tangle -n "__fish_tangle_using_subcommand version" -s q -l quiet -d 'Print only errors'
complete -c tangle -n "__fish_tangle_using_subcommand version" -s v -l verbose -d 'More detail (repeat for more)'
complete -c tangle -n "__fish_tangle_using_subcommand version" -l no-progress -d 'Never draw progress bars'
complete -c tangle -n "__fish_tangle_using_subcommand version" -l progress -d 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs'
complete -c tangle -n "__fish_tangle_using_subcommand version" -s h -l help -d 'Print help'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "init" -d 'Create a repository over one or more remotes'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "backup" -d 'Back up files and directories into a new snapshot'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "snapshots" -d 'List snapshots'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "ls" -d 'List the files in a snapshot'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "restore" -d 'Restore a snapshot (or a path in it) under a target directory'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "dump" -d 'Write a file of a snapshot, or a directory as a tar archive, to standard output'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "mount" -d 'Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "verify" -d 'Check the repository on every remote (needs no password)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "repair" -d 'Rebuild missing or damaged shards and metadata copies (needs no password)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "delete" -d 'Delete snapshots and reclaim their space, re-encoding what pointed into it'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "prune" -d 'Remove what interrupted runs left behind (nothing else)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "tag" -d 'Add, remove or set the tags of snapshots (each changed one is replaced by a copy)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "rewrite" -d 'Write new snapshots without the paths matching exclude patterns (--forget: delete the old)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "copy" -d 'Copy snapshots from another repository (--from-repo) into this one'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "import" -d 'Import another tool\'s history: `import restic` brings a restic repository\'s snapshots'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "unlock" -d 'Remove stale locks (left by a backup or delete that died)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "key" -d 'List, add, remove or change the passwords (key files) of the repository'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "remote" -d 'List, add or replace remotes'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "writer" -d 'Add, list or revoke writer keys: backup hosts that may add history, never read or delete it'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "find" -d 'Find files and directories by glob pattern in the snapshots'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "diff" -d 'Show what changed between two snapshots'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "stats" -d 'Sizes, dedup and compression of snapshots; storage per remote'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "cat" -d 'Print a repository object, decoded and checked, as JSON (for debugging)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "completions" -d 'Print a shell completion script'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "man" -d 'Write the man pages into a directory'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "profile" -d 'Show the settings a profile gives (`profile show`)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "run" -d 'Run the profile\'s backup, then delete by its policy, then verify (for cron)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "version" -d 'Show the version, target, features and the repository format versions'
complete -c tangle -n "__fish_tangle_using_subcommand help; and not __fish_seen_subcommand_from init backup snapshots ls restore dump mount verify repair delete prune tag rewrite copy import unlock key remote writer find diff stats cat completions man profile run version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from import" -f -a "restic" -d 'Import the snapshots of a restic repository (in a local directory)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "list" -d 'List the keys (passwords) of the repository; `*` marks the one that opened it'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "add" -d 'Add a password: a new key file wrapping the same master key'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "remove" -d 'Remove a key (password); the last key is never removed'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "passwd" -d 'Change the password: add a new key, then remove the one in use'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from remote" -f -a "list" -d 'Show the remotes, whether they answer, and what they hold'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from remote" -f -a "add" -d 'Add a remote: copy the metadata there and move a share of the existing shards onto it (`rebalance`), so old data gets the same spread as new data'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from remote" -f -a "replace" -d 'Replace a dead or retired remote by a new empty one; then run `repair` to fill it'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from remote" -f -a "rebalance" -d 'Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from writer" -f -a "add" -d 'Make a writer key for one backup host: it may add snapshots, never read or delete'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from writer" -f -a "list" -d 'List the writers (needs no password)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from writer" -f -a "revoke" -d 'Revoke a writer: its later heads are refused; what it wrote before stays'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "config" -d 'The repository config (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "key" -d 'A key file (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "snapshot" -d 'A snapshot record'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "index" -d 'An index segment'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "certificate" -d 'An extent certificate (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "head" -d 'A writer\'s head (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "deletion" -d 'A deletion record (no password needed)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "tree" -d 'A tree blob (one directory)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from cat" -f -a "blob" -d 'A data blob: its bytes (with --json: where it is stored and its bytes in base64)'
complete -c tangle -n "__fish_tangle_using_subcommand help; and __fish_seen_subcommand_from profile" -f -a "show" -d 'Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***'
