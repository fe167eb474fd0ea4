
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'tangle' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'tangle'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'tangle' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a repository over one or more remotes')
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Back up files and directories into a new snapshot')
            [CompletionResult]::new('snapshots', 'snapshots', [CompletionResultType]::ParameterValue, 'List snapshots')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the files in a snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore a snapshot (or a path in it) under a target directory')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Write a file of a snapshot, or a directory as a tar archive, to standard output')
            [CompletionResult]::new('mount', 'mount', [CompletionResultType]::ParameterValue, 'Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the repository on every remote (needs no password)')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Rebuild missing or damaged shards and metadata copies (needs no password)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete snapshots and reclaim their space, re-encoding what pointed into it')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove what interrupted runs left behind (nothing else)')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Add, remove or set the tags of snapshots (each changed one is replaced by a copy)')
            [CompletionResult]::new('rewrite', 'rewrite', [CompletionResultType]::ParameterValue, 'Write new snapshots without the paths matching exclude patterns (--forget: delete the old)')
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy snapshots from another repository (--from-repo) into this one')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import another tool''s history: `import restic` brings a restic repository''s snapshots')
            [CompletionResult]::new('unlock', 'unlock', [CompletionResultType]::ParameterValue, 'Remove stale locks (left by a backup or delete that died)')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'List, add, remove or change the passwords (key files) of the repository')
            [CompletionResult]::new('remote', 'remote', [CompletionResultType]::ParameterValue, 'List, add or replace remotes')
            [CompletionResult]::new('writer', 'writer', [CompletionResultType]::ParameterValue, 'Add, list or revoke writer keys: backup hosts that may add history, never read or delete it')
            [CompletionResult]::new('find', 'find', [CompletionResultType]::ParameterValue, 'Find files and directories by glob pattern in the snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changed between two snapshots')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Sizes, dedup and compression of snapshots; storage per remote')
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print a repository object, decoded and checked, as JSON (for debugging)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'Show the settings a profile gives (`profile show`)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the profile''s backup, then delete by its policy, then verify (for cron)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Show the version, target, features and the repository format versions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;init' {
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'A remote of the new repository (give it once per remote; 3 are recommended; default: the profile''s [repository] remotes)')
            [CompletionResult]::new('--data-shards', '--data-shards', [CompletionResultType]::ParameterName, 'Data shards per extent (default from the number of remotes)')
            [CompletionResult]::new('--parity-shards', '--parity-shards', [CompletionResultType]::ParameterName, 'Parity shards per extent')
            [CompletionResult]::new('--pointers', '--pointers', [CompletionResultType]::ParameterName, 'Pointer shards (entanglement with older extents) per extent; 0 is plain Reed-Solomon')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;backup' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Skip paths matching GLOB (a name like `*.o`, or an absolute path pattern)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip paths matching GLOB (a name like `*.o`, or an absolute path pattern)')
            [CompletionResult]::new('--exclude-file', '--exclude-file', [CompletionResultType]::ParameterName, 'Read exclude patterns from a file (one per line, # comments)')
            [CompletionResult]::new('--iexclude', '--iexclude', [CompletionResultType]::ParameterName, 'As --exclude, ignoring case')
            [CompletionResult]::new('--iexclude-file', '--iexclude-file', [CompletionResultType]::ParameterName, 'As --exclude-file, ignoring case')
            [CompletionResult]::new('--exclude-if-present', '--exclude-if-present', [CompletionResultType]::ParameterName, 'Skip the contents of directories holding FILE, or FILE starting with HEADER (FILE is kept); repeatable')
            [CompletionResult]::new('--exclude-larger-than', '--exclude-larger-than', [CompletionResultType]::ParameterName, 'Skip files larger than SIZE (bytes, or with K, M, G, T: 500K, 2M, 1G)')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Read the paths to back up from FILE (one path or glob pattern a line, # comments; - is stdin); repeatable')
            [CompletionResult]::new('--files-from-verbatim', '--files-from-verbatim', [CompletionResultType]::ParameterName, 'Read the paths to back up from FILE, one a line, taken literally; repeatable')
            [CompletionResult]::new('--files-from-raw', '--files-from-raw', [CompletionResultType]::ParameterName, 'Read the paths to back up from FILE, separated by NUL bytes; repeatable')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The stdin file''s path in the snapshot (default: stdin, recorded as /stdin)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Tag the snapshot (comma-separated, as restic''s; repeatable)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Host name to record (default: this machine''s)')
            [CompletionResult]::new('--upload-queue', '--upload-queue', [CompletionResultType]::ParameterName, 'Extents a slow remote may fall behind by before the backup waits for it (1-64, default 1; each holds about 28 MiB of memory with the default coding; raise it when one remote is much slower than the others)')
            [CompletionResult]::new('--writer-key', '--writer-key', [CompletionResultType]::ParameterName, 'Back up with this writer key file (from `tangle writer add`) instead of the password: the run can add history but read none, and delete nothing')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--exclude-caches', '--exclude-caches', [CompletionResultType]::ParameterName, 'Skip the contents of directories holding a valid CACHEDIR.TAG (the tag is kept)')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Stay on the file system of each source: do not descend into mount points')
            [CompletionResult]::new('--one-file-system', '--one-file-system', [CompletionResultType]::ParameterName, 'Stay on the file system of each source: do not descend into mount points')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Back up what is read from stdin, as one file')
            [CompletionResult]::new('--stdin-from-command', '--stdin-from-command', [CompletionResultType]::ParameterName, 'Back up the output of the command given after `--` as one file (the backup fails if the command does not exit 0)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Do everything except write to the repository')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Do everything except write to the repository')
            [CompletionResult]::new('--allow-stale', '--allow-stale', [CompletionResultType]::ParameterName, 'Back up even if the repository is older than this client last saw it (rollback)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;snapshots' {
            [CompletionResult]::new('--latest', '--latest', [CompletionResultType]::ParameterName, 'Show only the N newest snapshots of each group (without --group-by: of all)')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'Group the snapshots by these fields: host, paths and/or tags, comma-separated ('''' for one group); each group is printed under a header, and --json prints [{"group_key", "snapshots"}]')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'One line per snapshot without the paths column')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'One line per snapshot without the paths column')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;ls' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Show type, mode, size and time')
            [CompletionResult]::new('--long', '--long', [CompletionResultType]::ParameterName, 'Show type, mode, size and time')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;restore' {
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Directory to restore into; paths are recreated below it as they were backed up')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Directory to restore into; paths are recreated below it as they were backed up')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Restore only paths matching GLOB (repeatable)')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Restore only paths matching GLOB (repeatable)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Skip paths matching GLOB (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Skip paths matching GLOB (repeatable)')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'What to do with a file, symlink or special file already at a restored path: always replace it; if-changed: replace a file unless it has the snapshot''s size and mtime (then set only its metadata); if-newer: replace it if the snapshot''s mtime is later; never: keep it')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Read the restored files back and check them against the snapshot')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say how many files and bytes would be restored (and kept, and deleted); write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say how many files and bytes would be restored (and kept, and deleted); write nothing')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Delete what is in the target but not in the snapshot, below the restored paths (with --include/--exclude, only what they select); never outside the target')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;dump' {
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Archive format of a directory dump: `tar` or `zip`')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Write to this file instead of standard output')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Write to this file instead of standard output')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;mount' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--allow-other', '--allow-other', [CompletionResultType]::ParameterName, 'Let other users than the one mounting in (FUSE''s allow_other: root, or with `user_allow_other` in /etc/fuse.conf)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;verify' {
            [CompletionResult]::new('--read-data-subset', '--read-data-subset', [CompletionResultType]::ParameterName, 'Read part of the extents: a random share (`10%`), group n of t by extent name (`1/7`; 1/7 to 7/7 read each extent once), or random extents up to a size (`500M`); at least one extent')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the sample (to reproduce it; `n/t` draws nothing)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--read-data', '--read-data', [CompletionResultType]::ParameterName, 'Download every shard, check its hash and that parity matches data and pointers')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;repair' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print the plan and the bytes it would move; change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the plan and the bytes it would move; change nothing')
            [CompletionResult]::new('--read-data', '--read-data', [CompletionResultType]::ParameterName, 'First download and hash every shard, to also find corruption a listing cannot see')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;delete' {
            [CompletionResult]::new('--keep-last', '--keep-last', [CompletionResultType]::ParameterName, 'Keep the last N snapshots (per group)')
            [CompletionResult]::new('--keep-hourly', '--keep-hourly', [CompletionResultType]::ParameterName, 'Keep the last snapshot of each of the last N hours with snapshots')
            [CompletionResult]::new('--keep-daily', '--keep-daily', [CompletionResultType]::ParameterName, 'Keep the last snapshot of each of the last N days with snapshots')
            [CompletionResult]::new('--keep-weekly', '--keep-weekly', [CompletionResultType]::ParameterName, 'Keep the last snapshot of each of the last N ISO weeks with snapshots')
            [CompletionResult]::new('--keep-monthly', '--keep-monthly', [CompletionResultType]::ParameterName, 'Keep the last snapshot of each of the last N months with snapshots')
            [CompletionResult]::new('--keep-yearly', '--keep-yearly', [CompletionResultType]::ParameterName, 'Keep the last snapshot of each of the last N years with snapshots')
            [CompletionResult]::new('--keep-within', '--keep-within', [CompletionResultType]::ParameterName, 'Keep snapshots newer than DURATION before the newest one (e.g. 1y5m7d2h)')
            [CompletionResult]::new('--keep-tag', '--keep-tag', [CompletionResultType]::ParameterName, 'Keep snapshots with these tags (comma-separated: all of them; repeat: any list)')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'Group snapshots by these fields before applying the policy')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only consider snapshots of this host (repeat for several)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only consider snapshots with these tags (comma-separated: all of them)')
            [CompletionResult]::new('--max-unused', '--max-unused', [CompletionResultType]::ParameterName, 'Unused space to tolerate in partly used extents before repacking them: a share of the live data (5%), a size (100M) or `unlimited`')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'Use the profile''s [delete] policy (flags given here win key by key); the default when neither snapshots nor --keep-* options are given and the profile has one')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say what would be removed and freed; change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be removed and freed; change nothing')
            [CompletionResult]::new('--allow-degraded', '--allow-degraded', [CompletionResultType]::ParameterName, 'Delete even with remotes unreachable (the next repair removes from them what the deletion names)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;prune' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say what would be removed, per remote; change nothing (takes no lock, so a backup running meanwhile may show in it)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be removed, per remote; change nothing (takes no lock, so a backup running meanwhile may show in it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;tag' {
            [CompletionResult]::new('--add', '--add', [CompletionResultType]::ParameterName, 'Add these tags (comma-separated; repeatable)')
            [CompletionResult]::new('--remove', '--remove', [CompletionResultType]::ParameterName, 'Remove these tags (comma-separated; repeatable)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Replace every tag by these (comma-separated; repeatable; '''' for no tags); not with --add or --remove')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say which snapshots would change and how; change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say which snapshots would change and how; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;rewrite' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Leave out paths matching PATTERN, as backup''s --exclude (repeatable)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out paths matching PATTERN, as backup''s --exclude (repeatable)')
            [CompletionResult]::new('--exclude-file', '--exclude-file', [CompletionResultType]::ParameterName, 'Read exclude patterns from FILE, one per line, as backup''s --exclude-file (repeatable)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--forget', '--forget', [CompletionResultType]::ParameterName, 'Delete each rewritten snapshot''s original (its data stays until `tangle delete` finds it unused)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say which snapshots would be rewritten and what would be left out; write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say which snapshots would be rewritten and what would be left out; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;copy' {
            [CompletionResult]::new('--from-repo', '--from-repo', [CompletionResultType]::ParameterName, 'The source repository: any one of its remotes (as -r names the destination)')
            [CompletionResult]::new('--from-password-file', '--from-password-file', [CompletionResultType]::ParameterName, 'Read the source''s password from this file (first line); TANGLE_FROM_PASSWORD may hold the password itself')
            [CompletionResult]::new('--from-password-command', '--from-password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the source''s password')
            [CompletionResult]::new('--from-owner', '--from-owner', [CompletionResultType]::ParameterName, 'Trust only this owner key for the source (its fingerprint), as --owner does for the destination')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say which snapshots would be copied and which are there already; write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say which snapshots would be copied and which are there already; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;import' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('restic', 'restic', [CompletionResultType]::ParameterValue, 'Import the snapshots of a restic repository (in a local directory)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;import;restic' {
            [CompletionResult]::new('--from-repo', '--from-repo', [CompletionResultType]::ParameterName, 'The restic repository: a local directory (or `local:DIR`)')
            [CompletionResult]::new('--from-password-file', '--from-password-file', [CompletionResultType]::ParameterName, 'Read the restic repository''s password from this file (first line); RESTIC_PASSWORD may hold the password itself')
            [CompletionResult]::new('--from-password-command', '--from-password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the restic repository''s password')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Say which snapshots would be imported and which are here already; write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say which snapshots would be imported and which are here already; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;import;help' {
            [CompletionResult]::new('restic', 'restic', [CompletionResultType]::ParameterValue, 'Import the snapshots of a restic repository (in a local directory)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;import;help;restic' {
            break
        }
        'tangle;import;help;help' {
            break
        }
        'tangle;unlock' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--remove-all', '--remove-all', [CompletionResultType]::ParameterName, 'Remove every lock and repair marker, not only stale locks (only when you know no backup, delete or repair runs, on any machine)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;key' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the keys (passwords) of the repository; `*` marks the one that opened it')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a password: a new key file wrapping the same master key')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a key (password); the last key is never removed')
            [CompletionResult]::new('passwd', 'passwd', [CompletionResultType]::ParameterValue, 'Change the password: add a new key, then remove the one in use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;key;list' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;key;add' {
            [CompletionResult]::new('--new-password-file', '--new-password-file', [CompletionResultType]::ParameterName, 'Read the new password from this file (first line); else ask twice on the terminal')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;key;remove' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Also remove the key this command opened the repository with')
            [CompletionResult]::new('--allow-degraded', '--allow-degraded', [CompletionResultType]::ParameterName, 'Remove even with remotes unreachable (the next repair removes the key file from them; it never opens the repository meanwhile)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;key;passwd' {
            [CompletionResult]::new('--new-password-file', '--new-password-file', [CompletionResultType]::ParameterName, 'Read the new password from this file (first line); else ask twice on the terminal')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--allow-degraded', '--allow-degraded', [CompletionResultType]::ParameterName, 'Go on with remotes unreachable (as for `key remove`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;key;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the keys (passwords) of the repository; `*` marks the one that opened it')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a password: a new key file wrapping the same master key')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a key (password); the last key is never removed')
            [CompletionResult]::new('passwd', 'passwd', [CompletionResultType]::ParameterValue, 'Change the password: add a new key, then remove the one in use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;key;help;list' {
            break
        }
        'tangle;key;help;add' {
            break
        }
        'tangle;key;help;remove' {
            break
        }
        'tangle;key;help;passwd' {
            break
        }
        'tangle;key;help;help' {
            break
        }
        'tangle;remote' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show the remotes, whether they answer, and what they hold')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a remote: copy the metadata there and move a share of the existing shards onto it (`rebalance`), so old data gets the same spread as new data')
            [CompletionResult]::new('replace', 'replace', [CompletionResultType]::ParameterValue, 'Replace a dead or retired remote by a new empty one; then run `repair` to fill it')
            [CompletionResult]::new('rebalance', 'rebalance', [CompletionResultType]::ParameterValue, 'Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;remote;list' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;remote;add' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--no-rebalance', '--no-rebalance', [CompletionResultType]::ParameterName, 'Only change the config (new extents use the remote; run `repair` and `remote rebalance` later)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;remote;replace' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;remote;rebalance' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print what would move without moving anything')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would move without moving anything')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;remote;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show the remotes, whether they answer, and what they hold')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a remote: copy the metadata there and move a share of the existing shards onto it (`rebalance`), so old data gets the same spread as new data')
            [CompletionResult]::new('replace', 'replace', [CompletionResultType]::ParameterValue, 'Replace a dead or retired remote by a new empty one; then run `repair` to fill it')
            [CompletionResult]::new('rebalance', 'rebalance', [CompletionResultType]::ParameterValue, 'Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;remote;help;list' {
            break
        }
        'tangle;remote;help;add' {
            break
        }
        'tangle;remote;help;replace' {
            break
        }
        'tangle;remote;help;rebalance' {
            break
        }
        'tangle;remote;help;help' {
            break
        }
        'tangle;writer' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Make a writer key for one backup host: it may add snapshots, never read or delete')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the writers (needs no password)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a writer: its later heads are refused; what it wrote before stays')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;writer;add' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write the key here (created, mode 0600; never overwritten); default LABEL.writer-key in the current directory')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;writer;list' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;writer;revoke' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;writer;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Make a writer key for one backup host: it may add snapshots, never read or delete')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the writers (needs no password)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a writer: its later heads are refused; what it wrote before stays')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;writer;help;add' {
            break
        }
        'tangle;writer;help;list' {
            break
        }
        'tangle;writer;help;revoke' {
            break
        }
        'tangle;writer;help;help' {
            break
        }
        'tangle;find' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Search only this snapshot (id, prefix or `latest`); repeatable. Default: every snapshot, newest first')
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Search only this snapshot (id, prefix or `latest`); repeatable. Default: every snapshot, newest first')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Search only at or below this path (as backed up)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match regardless of case')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;diff' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--metadata', '--metadata', [CompletionResultType]::ParameterName, 'Also show entries whose metadata alone changed (U: mode, owner, mtime, xattrs)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;stats' {
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'What `total_size` counts')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'tangle;cat' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'The repository config (no password needed)')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'A key file (no password needed)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'A snapshot record')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'An index segment')
            [CompletionResult]::new('certificate', 'certificate', [CompletionResultType]::ParameterValue, 'An extent certificate (no password needed)')
            [CompletionResult]::new('head', 'head', [CompletionResultType]::ParameterValue, 'A writer''s head (no password needed)')
            [CompletionResult]::new('deletion', 'deletion', [CompletionResultType]::ParameterValue, 'A deletion record (no password needed)')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'A tree blob (one directory)')
            [CompletionResult]::new('blob', 'blob', [CompletionResultType]::ParameterValue, 'A data blob: its bytes (with --json: where it is stored and its bytes in base64)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;cat;config' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;key' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;snapshot' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Only snapshots of this host (repeat: any of them); `latest` is the newest of these. A snapshot named by id is taken as given')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only snapshots with all these tags (comma-separated; repeat: any of the lists; '''' matches snapshots without tags); `latest` is the newest of these')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest` is the newest of these')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;index' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;certificate' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;head' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;deletion' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;tree' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;blob' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;cat;help' {
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'The repository config (no password needed)')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'A key file (no password needed)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'A snapshot record')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'An index segment')
            [CompletionResult]::new('certificate', 'certificate', [CompletionResultType]::ParameterValue, 'An extent certificate (no password needed)')
            [CompletionResult]::new('head', 'head', [CompletionResultType]::ParameterValue, 'A writer''s head (no password needed)')
            [CompletionResult]::new('deletion', 'deletion', [CompletionResultType]::ParameterValue, 'A deletion record (no password needed)')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'A tree blob (one directory)')
            [CompletionResult]::new('blob', 'blob', [CompletionResultType]::ParameterValue, 'A data blob: its bytes (with --json: where it is stored and its bytes in base64)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;cat;help;config' {
            break
        }
        'tangle;cat;help;key' {
            break
        }
        'tangle;cat;help;snapshot' {
            break
        }
        'tangle;cat;help;index' {
            break
        }
        'tangle;cat;help;certificate' {
            break
        }
        'tangle;cat;help;head' {
            break
        }
        'tangle;cat;help;deletion' {
            break
        }
        'tangle;cat;help;tree' {
            break
        }
        'tangle;cat;help;blob' {
            break
        }
        'tangle;cat;help;help' {
            break
        }
        'tangle;completions' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;man' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;profile' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;profile;show' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;profile;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;profile;help;show' {
            break
        }
        'tangle;profile;help;help' {
            break
        }
        'tangle;run' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;version' {
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO: the profile `default`, if it exists)')
            [CompletionResult]::new('--password-file', '--password-file', [CompletionResultType]::ParameterName, 'Read the password from this file (first line)')
            [CompletionResult]::new('--password-command', '--password-command', [CompletionResultType]::ParameterName, 'Run this shell command and use its output as the password')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)')
            [CompletionResult]::new('--owner', '--owner', [CompletionResultType]::ParameterName, 'Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted')
            [CompletionResult]::new('--retry-lock', '--retry-lock', [CompletionResultType]::ParameterName, 'Wait up to this long for a conflicting lock (another command writing) to go, e.g. `10m` or `1h`; without it a busy repository is an error at once (exit 11)')
            [CompletionResult]::new('--limit-upload', '--limit-upload', [CompletionResultType]::ParameterName, 'Upload at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--limit-download', '--limit-download', [CompletionResultType]::ParameterName, 'Download at most this many KiB/s, over all remotes together')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output on stdout (and fatal errors as JSON on stderr)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More detail (repeat for more)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'Never draw progress bars')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Show progress even when stderr is not a terminal; with --json, `backup` prints status lines (`"message_type": "status"`) on stdout while it runs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'tangle;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a repository over one or more remotes')
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Back up files and directories into a new snapshot')
            [CompletionResult]::new('snapshots', 'snapshots', [CompletionResultType]::ParameterValue, 'List snapshots')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the files in a snapshot')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Restore a snapshot (or a path in it) under a target directory')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Write a file of a snapshot, or a directory as a tar archive, to standard output')
            [CompletionResult]::new('mount', 'mount', [CompletionResultType]::ParameterValue, 'Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the repository on every remote (needs no password)')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Rebuild missing or damaged shards and metadata copies (needs no password)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete snapshots and reclaim their space, re-encoding what pointed into it')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove what interrupted runs left behind (nothing else)')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Add, remove or set the tags of snapshots (each changed one is replaced by a copy)')
            [CompletionResult]::new('rewrite', 'rewrite', [CompletionResultType]::ParameterValue, 'Write new snapshots without the paths matching exclude patterns (--forget: delete the old)')
            [CompletionResult]::new('copy', 'copy', [CompletionResultType]::ParameterValue, 'Copy snapshots from another repository (--from-repo) into this one')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import another tool''s history: `import restic` brings a restic repository''s snapshots')
            [CompletionResult]::new('unlock', 'unlock', [CompletionResultType]::ParameterValue, 'Remove stale locks (left by a backup or delete that died)')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'List, add, remove or change the passwords (key files) of the repository')
            [CompletionResult]::new('remote', 'remote', [CompletionResultType]::ParameterValue, 'List, add or replace remotes')
            [CompletionResult]::new('writer', 'writer', [CompletionResultType]::ParameterValue, 'Add, list or revoke writer keys: backup hosts that may add history, never read or delete it')
            [CompletionResult]::new('find', 'find', [CompletionResultType]::ParameterValue, 'Find files and directories by glob pattern in the snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what changed between two snapshots')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Sizes, dedup and compression of snapshots; storage per remote')
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Print a repository object, decoded and checked, as JSON (for debugging)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'Show the settings a profile gives (`profile show`)')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the profile''s backup, then delete by its policy, then verify (for cron)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Show the version, target, features and the repository format versions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'tangle;help;init' {
            break
        }
        'tangle;help;backup' {
            break
        }
        'tangle;help;snapshots' {
            break
        }
        'tangle;help;ls' {
            break
        }
        'tangle;help;restore' {
            break
        }
        'tangle;help;dump' {
            break
        }
        'tangle;help;mount' {
            break
        }
        'tangle;help;verify' {
            break
        }
        'tangle;help;repair' {
            break
        }
        'tangle;help;delete' {
            break
        }
        'tangle;help;prune' {
            break
        }
        'tangle;help;tag' {
            break
        }
        'tangle;help;rewrite' {
            break
        }
        'tangle;help;copy' {
            break
        }
        'tangle;help;import' {
            [CompletionResult]::new('restic', 'restic', [CompletionResultType]::ParameterValue, 'Import the snapshots of a restic repository (in a local directory)')
            break
        }
        'tangle;help;import;restic' {
            break
        }
        'tangle;help;unlock' {
            break
        }
        'tangle;help;key' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the keys (passwords) of the repository; `*` marks the one that opened it')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a password: a new key file wrapping the same master key')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a key (password); the last key is never removed')
            [CompletionResult]::new('passwd', 'passwd', [CompletionResultType]::ParameterValue, 'Change the password: add a new key, then remove the one in use')
            break
        }
        'tangle;help;key;list' {
            break
        }
        'tangle;help;key;add' {
            break
        }
        'tangle;help;key;remove' {
            break
        }
        'tangle;help;key;passwd' {
            break
        }
        'tangle;help;remote' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Show the remotes, whether they answer, and what they hold')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a remote: copy the metadata there and move a share of the existing shards onto it (`rebalance`), so old data gets the same spread as new data')
            [CompletionResult]::new('replace', 'replace', [CompletionResultType]::ParameterValue, 'Replace a dead or retired remote by a new empty one; then run `repair` to fill it')
            [CompletionResult]::new('rebalance', 'rebalance', [CompletionResultType]::ParameterValue, 'Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)')
            break
        }
        'tangle;help;remote;list' {
            break
        }
        'tangle;help;remote;add' {
            break
        }
        'tangle;help;remote;replace' {
            break
        }
        'tangle;help;remote;rebalance' {
            break
        }
        'tangle;help;writer' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Make a writer key for one backup host: it may add snapshots, never read or delete')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the writers (needs no password)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a writer: its later heads are refused; what it wrote before stays')
            break
        }
        'tangle;help;writer;add' {
            break
        }
        'tangle;help;writer;list' {
            break
        }
        'tangle;help;writer;revoke' {
            break
        }
        'tangle;help;find' {
            break
        }
        'tangle;help;diff' {
            break
        }
        'tangle;help;stats' {
            break
        }
        'tangle;help;cat' {
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'The repository config (no password needed)')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'A key file (no password needed)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'A snapshot record')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'An index segment')
            [CompletionResult]::new('certificate', 'certificate', [CompletionResultType]::ParameterValue, 'An extent certificate (no password needed)')
            [CompletionResult]::new('head', 'head', [CompletionResultType]::ParameterValue, 'A writer''s head (no password needed)')
            [CompletionResult]::new('deletion', 'deletion', [CompletionResultType]::ParameterValue, 'A deletion record (no password needed)')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'A tree blob (one directory)')
            [CompletionResult]::new('blob', 'blob', [CompletionResultType]::ParameterValue, 'A data blob: its bytes (with --json: where it is stored and its bytes in base64)')
            break
        }
        'tangle;help;cat;config' {
            break
        }
        'tangle;help;cat;key' {
            break
        }
        'tangle;help;cat;snapshot' {
            break
        }
        'tangle;help;cat;index' {
            break
        }
        'tangle;help;cat;certificate' {
            break
        }
        'tangle;help;cat;head' {
            break
        }
        'tangle;help;cat;deletion' {
            break
        }
        'tangle;help;cat;tree' {
            break
        }
        'tangle;help;cat;blob' {
            break
        }
        'tangle;help;completions' {
            break
        }
        'tangle;help;man' {
            break
        }
        'tangle;help;profile' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***')
            break
        }
        'tangle;help;profile;show' {
            break
        }
        'tangle;help;run' {
            break
        }
        'tangle;help;version' {
            break
        }
        'tangle;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
