#compdef tangle

autoload -U is-at-least

_tangle() {
    typeset -A opt_args
    typeset -a _arguments_options
    local ret=1

    if is-at-least 5.2; then
        _arguments_options=(-s -S -C)
    else
        _arguments_options=(-s -C)
    fi

    local context curcontext="$curcontext" state line
    _arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
":: :_tangle_commands" \
"*::: :->tangle" \
&& ret=0
    case $state in
    (tangle)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-command-$line[1]:"
        case $line[1] in
            (init)
_arguments "${_arguments_options[@]}" : \
'*--remote=[A remote of the new repository (give it once per remote; 3 are recommended; default\: the profile'\''s \[repository\] remotes)]:URL:_default' \
'--data-shards=[Data shards per extent (default from the number of remotes)]:DATA_SHARDS:_default' \
'--parity-shards=[Parity shards per extent]:PARITY_SHARDS:_default' \
'--pointers=[Pointer shards (entanglement with older extents) per extent; 0 is plain Reed-Solomon]:POINTERS:_default' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(backup)
_arguments "${_arguments_options[@]}" : \
'*-e+[Skip paths matching GLOB (a name like \`*.o\`, or an absolute path pattern)]:GLOB:_default' \
'*--exclude=[Skip paths matching GLOB (a name like \`*.o\`, or an absolute path pattern)]:GLOB:_default' \
'*--exclude-file=[Read exclude patterns from a file (one per line, # comments)]:FILE:_files' \
'*--iexclude=[As --exclude, ignoring case]:GLOB:_default' \
'*--iexclude-file=[As --exclude-file, ignoring case]:FILE:_files' \
'*--exclude-if-present=[Skip the contents of directories holding FILE, or FILE starting with HEADER (FILE is kept); repeatable]:FILE[:HEADER]:_default' \
'--exclude-larger-than=[Skip files larger than SIZE (bytes, or with K, M, G, T\: 500K, 2M, 1G)]:SIZE:_default' \
'*--files-from=[Read the paths to back up from FILE (one path or glob pattern a line, # comments; - is stdin); repeatable]:FILE:_files' \
'*--files-from-verbatim=[Read the paths to back up from FILE, one a line, taken literally; repeatable]:FILE:_files' \
'*--files-from-raw=[Read the paths to back up from FILE, separated by NUL bytes; repeatable]:FILE:_files' \
'--stdin-filename=[The stdin file'\''s path in the snapshot (default\: stdin, recorded as /stdin)]:NAME:_default' \
'*--tag=[Tag the snapshot (comma-separated, as restic'\''s; repeatable)]:TAG[,TAG]:_default' \
'--host=[Host name to record (default\: this machine'\''s)]:HOST:_default' \
'--upload-queue=[Extents a slow remote may fall behind by before the backup waits for it (1-64, default 1; each holds about 28 MiB of memory with the default coding; raise it when one remote is much slower than the others)]:N:_default' \
'--writer-key=[Back up with this writer key file (from \`tangle writer add\`) instead of the password\: the run can add history but read none, and delete nothing]:FILE:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--exclude-caches[Skip the contents of directories holding a valid CACHEDIR.TAG (the tag is kept)]' \
'-x[Stay on the file system of each source\: do not descend into mount points]' \
'--one-file-system[Stay on the file system of each source\: do not descend into mount points]' \
'--stdin[Back up what is read from stdin, as one file]' \
'--stdin-from-command[Back up the output of the command given after \`--\` as one file (the backup fails if the command does not exit 0)]' \
'-n[Do everything except write to the repository]' \
'--dry-run[Do everything except write to the repository]' \
'--allow-stale[Back up even if the repository is older than this client last saw it (rollback)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::paths -- Files and directories to back up (default\: the profile'\''s \[backup\] sources); with --stdin-from-command, the command and its arguments:_files' \
&& ret=0
;;
(snapshots)
_arguments "${_arguments_options[@]}" : \
'--latest=[Show only the N newest snapshots of each group (without --group-by\: of all)]:N:_default' \
'--group-by=[Group the snapshots by these fields\: host, paths and/or tags, comma-separated ('\'''\'' for one group); each group is printed under a header, and --json prints \[{"group_key", "snapshots"}\]]:host,paths,tags:_default' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-c[One line per snapshot without the paths column]' \
'--compact[One line per snapshot without the paths column]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::snapshots -- List only these snapshots (ids, prefixes or `latest`); default\: all (that the filters select):_default' \
&& ret=0
;;
(ls)
_arguments "${_arguments_options[@]}" : \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-l[Show type, mode, size and time]' \
'--long[Show type, mode, size and time]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':snapshot -- Snapshot id (prefix) or `latest`:_default' \
'::path -- Only list this path (as backed up) and what is below it:_files' \
&& ret=0
;;
(restore)
_arguments "${_arguments_options[@]}" : \
'-t+[Directory to restore into; paths are recreated below it as they were backed up]:DIR:_files' \
'--target=[Directory to restore into; paths are recreated below it as they were backed up]:DIR:_files' \
'*-i+[Restore only paths matching GLOB (repeatable)]:GLOB:_default' \
'*--include=[Restore only paths matching GLOB (repeatable)]:GLOB:_default' \
'*-e+[Skip paths matching GLOB (repeatable)]:GLOB:_default' \
'*--exclude=[Skip paths matching GLOB (repeatable)]:GLOB:_default' \
'--overwrite=[What to do with a file, symlink or special file already at a restored path\: always replace it; if-changed\: replace a file unless it has the snapshot'\''s size and mtime (then set only its metadata); if-newer\: replace it if the snapshot'\''s mtime is later; never\: keep it]:WHEN:(always if-changed if-newer never)' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--verify[Read the restored files back and check them against the snapshot]' \
'-n[Say how many files and bytes would be restored (and kept, and deleted); write nothing]' \
'--dry-run[Say how many files and bytes would be restored (and kept, and deleted); write nothing]' \
'--delete[Delete what is in the target but not in the snapshot, below the restored paths (with --include/--exclude, only what they select); never outside the target]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':snapshot -- Snapshot id (prefix) or `latest`, optionally with `\:PATH` to restore only that path:_default' \
&& ret=0
;;
(dump)
_arguments "${_arguments_options[@]}" : \
'--archive=[Archive format of a directory dump\: \`tar\` or \`zip\`]:FORMAT:_default' \
'-t+[Write to this file instead of standard output]:FILE:_files' \
'--target=[Write to this file instead of standard output]:FILE:_files' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':snapshot -- Snapshot id (prefix) or `latest`:_default' \
':file -- Absolute path of the file or directory, as backed up (`/`\: the whole snapshot):_files' \
&& ret=0
;;
(mount)
_arguments "${_arguments_options[@]}" : \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--allow-other[Let other users than the one mounting in (FUSE'\''s allow_other\: root, or with \`user_allow_other\` in /etc/fuse.conf)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::args -- \[SNAPSHOT\] MOUNTPOINT\: the directory to mount at (it must exist), after an optional snapshot id, prefix or `latest` to show alone:_default' \
&& ret=0
;;
(verify)
_arguments "${_arguments_options[@]}" : \
'--read-data-subset=[Read part of the extents\: a random share (\`10%\`), group n of t by extent name (\`1/7\`; 1/7 to 7/7 read each extent once), or random extents up to a size (\`500M\`); at least one extent]:PCT%|n/t|SIZE:_default' \
'--seed=[Seed of the sample (to reproduce it; \`n/t\` draws nothing)]:SEED:_default' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'(--read-data-subset)--read-data[Download every shard, check its hash and that parity matches data and pointers]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(repair)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-n[Print the plan and the bytes it would move; change nothing]' \
'--dry-run[Print the plan and the bytes it would move; change nothing]' \
'--read-data[First download and hash every shard, to also find corruption a listing cannot see]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(delete)
_arguments "${_arguments_options[@]}" : \
'--keep-last=[Keep the last N snapshots (per group)]:N:_default' \
'--keep-hourly=[Keep the last snapshot of each of the last N hours with snapshots]:N:_default' \
'--keep-daily=[Keep the last snapshot of each of the last N days with snapshots]:N:_default' \
'--keep-weekly=[Keep the last snapshot of each of the last N ISO weeks with snapshots]:N:_default' \
'--keep-monthly=[Keep the last snapshot of each of the last N months with snapshots]:N:_default' \
'--keep-yearly=[Keep the last snapshot of each of the last N years with snapshots]:N:_default' \
'--keep-within=[Keep snapshots newer than DURATION before the newest one (e.g. 1y5m7d2h)]:DURATION:_default' \
'*--keep-tag=[Keep snapshots with these tags (comma-separated\: all of them; repeat\: any list)]:TAGS:_default' \
'--group-by=[Group snapshots by these fields before applying the policy]:host,paths,tags:_default' \
'*--host=[Only consider snapshots of this host (repeat for several)]:HOST:_default' \
'*--tag=[Only consider snapshots with these tags (comma-separated\: all of them)]:TAGS:_default' \
'--max-unused=[Unused space to tolerate in partly used extents before repacking them\: a share of the live data (5%), a size (100M) or \`unlimited\`]:LIMIT:_default' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--policy[Use the profile'\''s \[delete\] policy (flags given here win key by key); the default when neither snapshots nor --keep-* options are given and the profile has one]' \
'-n[Say what would be removed and freed; change nothing]' \
'--dry-run[Say what would be removed and freed; change nothing]' \
'--allow-degraded[Delete even with remotes unreachable (the next repair removes from them what the deletion names)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::snapshots -- Snapshots to delete (ids or unique id prefixes, or `latest`):_default' \
&& ret=0
;;
(prune)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-n[Say what would be removed, per remote; change nothing (takes no lock, so a backup running meanwhile may show in it)]' \
'--dry-run[Say what would be removed, per remote; change nothing (takes no lock, so a backup running meanwhile may show in it)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(tag)
_arguments "${_arguments_options[@]}" : \
'*--add=[Add these tags (comma-separated; repeatable)]:TAG[,TAG]:_default' \
'*--remove=[Remove these tags (comma-separated; repeatable)]:TAG[,TAG]:_default' \
'*--set=[Replace every tag by these (comma-separated; repeatable; '\'''\'' for no tags); not with --add or --remove]:TAG[,TAG]:_default' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-n[Say which snapshots would change and how; change nothing]' \
'--dry-run[Say which snapshots would change and how; change nothing]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::snapshots -- Snapshots to change (ids, unique prefixes or `latest`); none\: every snapshot the filters select (all of them without filters):_default' \
&& ret=0
;;
(rewrite)
_arguments "${_arguments_options[@]}" : \
'*-e+[Leave out paths matching PATTERN, as backup'\''s --exclude (repeatable)]:PATTERN:_default' \
'*--exclude=[Leave out paths matching PATTERN, as backup'\''s --exclude (repeatable)]:PATTERN:_default' \
'*--exclude-file=[Read exclude patterns from FILE, one per line, as backup'\''s --exclude-file (repeatable)]:FILE:_files' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--forget[Delete each rewritten snapshot'\''s original (its data stays until \`tangle delete\` finds it unused)]' \
'-n[Say which snapshots would be rewritten and what would be left out; write nothing]' \
'--dry-run[Say which snapshots would be rewritten and what would be left out; write nothing]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::snapshots -- Snapshots to rewrite (ids, unique prefixes or `latest`); none\: every snapshot the filters select (all of them without filters):_default' \
&& ret=0
;;
(copy)
_arguments "${_arguments_options[@]}" : \
'--from-repo=[The source repository\: any one of its remotes (as -r names the destination)]:REPO:_default' \
'--from-password-file=[Read the source'\''s password from this file (first line); TANGLE_FROM_PASSWORD may hold the password itself]:FILE:_files' \
'--from-password-command=[Run this shell command and use its output as the source'\''s password]:COMMAND:_default' \
'--from-owner=[Trust only this owner key for the source (its fingerprint), as --owner does for the destination]:FINGERPRINT:_default' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-n[Say which snapshots would be copied and which are there already; write nothing]' \
'--dry-run[Say which snapshots would be copied and which are there already; write nothing]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::snapshots -- Source snapshots to copy (ids, unique prefixes or `latest`); none\: every snapshot the filters select in the source (all of them without filters):_default' \
&& ret=0
;;
(import)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
":: :_tangle__subcmd__import_commands" \
"*::: :->import" \
&& ret=0

    case $state in
    (import)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-import-command-$line[1]:"
        case $line[1] in
            (restic)
_arguments "${_arguments_options[@]}" : \
'--from-repo=[The restic repository\: a local directory (or \`local\:DIR\`)]:RESTIC_REPO:_default' \
'--from-password-file=[Read the restic repository'\''s password from this file (first line); RESTIC_PASSWORD may hold the password itself]:FILE:_files' \
'--from-password-command=[Run this shell command and use its output as the restic repository'\''s password]:COMMAND:_default' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-n[Say which snapshots would be imported and which are here already; write nothing]' \
'--dry-run[Say which snapshots would be imported and which are here already; write nothing]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::snapshots -- restic snapshots to import (ids, unique prefixes or `latest`); none\: every snapshot the filters select (all of them without filters):_default' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__import__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-import-help-command-$line[1]:"
        case $line[1] in
            (restic)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(unlock)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--remove-all[Remove every lock and repair marker, not only stale locks (only when you know no backup, delete or repair runs, on any machine)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(key)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
":: :_tangle__subcmd__key_commands" \
"*::: :->key" \
&& ret=0

    case $state in
    (key)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-key-command-$line[1]:"
        case $line[1] in
            (list)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(add)
_arguments "${_arguments_options[@]}" : \
'--new-password-file=[Read the new password from this file (first line); else ask twice on the terminal]:FILE:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(remove)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--force[Also remove the key this command opened the repository with]' \
'--allow-degraded[Remove even with remotes unreachable (the next repair removes the key file from them; it never opens the repository meanwhile)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- The key'\''s id or a unique prefix of it (see `tangle key list`):_default' \
&& ret=0
;;
(passwd)
_arguments "${_arguments_options[@]}" : \
'--new-password-file=[Read the new password from this file (first line); else ask twice on the terminal]:FILE:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--allow-degraded[Go on with remotes unreachable (as for \`key remove\`)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__key__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-key-help-command-$line[1]:"
        case $line[1] in
            (list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(add)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(remove)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(passwd)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(remote)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
":: :_tangle__subcmd__remote_commands" \
"*::: :->remote" \
&& ret=0

    case $state in
    (remote)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-remote-command-$line[1]:"
        case $line[1] in
            (list)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(add)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--no-rebalance[Only change the config (new extents use the remote; run \`repair\` and \`remote rebalance\` later)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':url -- URL of the new remote:_default' \
&& ret=0
;;
(replace)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':old -- The remote to replace (its URL or index):_default' \
':new -- The new location:_default' \
&& ret=0
;;
(rebalance)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-n[Print what would move without moving anything]' \
'--dry-run[Print what would move without moving anything]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__remote__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-remote-help-command-$line[1]:"
        case $line[1] in
            (list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(add)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(replace)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(rebalance)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(writer)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
":: :_tangle__subcmd__writer_commands" \
"*::: :->writer" \
&& ret=0

    case $state in
    (writer)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-writer-command-$line[1]:"
        case $line[1] in
            (add)
_arguments "${_arguments_options[@]}" : \
'--out=[Write the key here (created, mode 0600; never overwritten); default LABEL.writer-key in the current directory]:FILE:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':label -- A name for the host (letters, digits, . _ @ -), unique in the repository:_default' \
&& ret=0
;;
(list)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(revoke)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':writer -- The writer'\''s label, or a unique prefix of its id:_default' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__writer__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-writer-help-command-$line[1]:"
        case $line[1] in
            (add)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(revoke)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(find)
_arguments "${_arguments_options[@]}" : \
'*-s+[Search only this snapshot (id, prefix or \`latest\`); repeatable. Default\: every snapshot, newest first]:ID:_default' \
'*--snapshot=[Search only this snapshot (id, prefix or \`latest\`); repeatable. Default\: every snapshot, newest first]:ID:_default' \
'--path=[Search only at or below this path (as backed up)]:PATH:_files' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'-i[Match regardless of case]' \
'--ignore-case[Match regardless of case]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
'*::patterns -- Glob patterns\: without `/` matched against the file name, with `/` against the whole absolute path (like --exclude):_default' \
&& ret=0
;;
(diff)
_arguments "${_arguments_options[@]}" : \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--metadata[Also show entries whose metadata alone changed (U\: mode, owner, mtime, xattrs)]' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':a -- The older snapshot (id, prefix or `latest`):_default' \
':b -- The newer snapshot (id, prefix or `latest`):_default' \
&& ret=0
;;
(stats)
_arguments "${_arguments_options[@]}" : \
'--mode=[What \`total_size\` counts]:MODE:((restore-size\:"The files as restored, summed over the snapshots"
raw-data\:"The unique blobs the snapshots reference, as stored"))' \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'*::snapshots -- Snapshots to count (ids, prefixes or `latest`); default\: all:_default' \
&& ret=0
;;
(cat)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
":: :_tangle__subcmd__cat_commands" \
"*::: :->cat" \
&& ret=0

    case $state in
    (cat)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-cat-command-$line[1]:"
        case $line[1] in
            (config)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(key)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- Key file id (or a unique prefix):_default' \
&& ret=0
;;
(snapshot)
_arguments "${_arguments_options[@]}" : \
'*-H+[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--host=[Only snapshots of this host (repeat\: any of them); \`latest\` is the newest of these. A snapshot named by id is taken as given]:HOST:_default' \
'*--tag=[Only snapshots with all these tags (comma-separated; repeat\: any of the lists; '\'''\'' matches snapshots without tags); \`latest\` is the newest of these]:TAG[,TAG]:_default' \
'*--path=[Only snapshots whose backed-up paths include PATH (repeat\: all of them); \`latest\` is the newest of these]:PATH:_files' \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- Snapshot id (or a unique prefix), or `latest`:_default' \
&& ret=0
;;
(index)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- Index segment id (or a unique prefix):_default' \
&& ret=0
;;
(certificate)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':name -- Extent name (or a unique prefix):_default' \
&& ret=0
;;
(head)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':spec -- WRITER\[/SEQ\]\: writer id (or a unique prefix) and chain position (decimal, or the 16 hex digits of its name); without SEQ the writer'\''s newest head:_default' \
&& ret=0
;;
(deletion)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- Deletion record id (or a unique prefix):_default' \
&& ret=0
;;
(tree)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- Tree blob id (or a unique prefix):_default' \
&& ret=0
;;
(blob)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':id -- Blob id (or a unique prefix):_default' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__cat__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-cat-help-command-$line[1]:"
        case $line[1] in
            (config)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(key)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(snapshot)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(index)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(certificate)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(head)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(deletion)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(tree)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(blob)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(completions)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':shell -- bash, zsh, fish, elvish or powershell:(bash elvish fish powershell zsh)' \
&& ret=0
;;
(man)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
':dir -- The directory to write the pages into (it must exist):_files' \
&& ret=0
;;
(profile)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
":: :_tangle__subcmd__profile_commands" \
"*::: :->profile" \
&& ret=0

    case $state in
    (profile)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-profile-command-$line[1]:"
        case $line[1] in
            (show)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__profile__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-profile-help-command-$line[1]:"
        case $line[1] in
            (show)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(run)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(version)
_arguments "${_arguments_options[@]}" : \
'-r+[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'--repo=[Repository\: any one of its remotes (a path, file\://, s3\:// or sftp\:// URL)]:REPO:_default' \
'-P+[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--profile=[Profile\: the repository, password, per-remote settings and the settings of backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and TANGLE_REPO\: the profile \`default\`, if it exists)]:NAME:_default' \
'--password-file=[Read the password from this file (first line)]:FILE:_files' \
'--password-command=[Run this shell command and use its output as the password]:COMMAND:_default' \
'--cache-dir=[Local cache directory (default\: \$XDG_CACHE_HOME/tangle or ~/.cache/tangle)]:DIR:_files' \
'--owner=[Trust only this owner key (its fingerprint, as \`init\` prints it); for CI jobs without a cache. Else the owner the cache pinned at init or first open is trusted]:FINGERPRINT:_default' \
'--retry-lock=[Wait up to this long for a conflicting lock (another command writing) to go, e.g. \`10m\` or \`1h\`; without it a busy repository is an error at once (exit 11)]:DURATION:_default' \
'--limit-upload=[Upload at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--limit-download=[Download at most this many KiB/s, over all remotes together]:KIB_PER_S:_default' \
'--json[Machine-readable output on stdout (and fatal errors as JSON on stderr)]' \
'-q[Print only errors]' \
'--quiet[Print only errors]' \
'*-v[More detail (repeat for more)]' \
'*--verbose[More detail (repeat for more)]' \
'(--progress)--no-progress[Never draw progress bars]' \
'--progress[Show progress even when stderr is not a terminal; with --json, \`backup\` prints status lines (\`"message_type"\: "status"\`) on stdout while it runs]' \
'-h[Print help]' \
'--help[Print help]' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-command-$line[1]:"
        case $line[1] in
            (init)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(backup)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(snapshots)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(ls)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(restore)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(dump)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(mount)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(verify)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(repair)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(delete)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(prune)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(tag)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(rewrite)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(copy)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(import)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help__subcmd__import_commands" \
"*::: :->import" \
&& ret=0

    case $state in
    (import)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-import-command-$line[1]:"
        case $line[1] in
            (restic)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(unlock)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(key)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help__subcmd__key_commands" \
"*::: :->key" \
&& ret=0

    case $state in
    (key)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-key-command-$line[1]:"
        case $line[1] in
            (list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(add)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(remove)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(passwd)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(remote)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help__subcmd__remote_commands" \
"*::: :->remote" \
&& ret=0

    case $state in
    (remote)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-remote-command-$line[1]:"
        case $line[1] in
            (list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(add)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(replace)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(rebalance)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(writer)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help__subcmd__writer_commands" \
"*::: :->writer" \
&& ret=0

    case $state in
    (writer)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-writer-command-$line[1]:"
        case $line[1] in
            (add)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(revoke)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(find)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(diff)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(stats)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(cat)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help__subcmd__cat_commands" \
"*::: :->cat" \
&& ret=0

    case $state in
    (cat)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-cat-command-$line[1]:"
        case $line[1] in
            (config)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(key)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(snapshot)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(index)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(certificate)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(head)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(deletion)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(tree)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(blob)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(completions)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(man)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(profile)
_arguments "${_arguments_options[@]}" : \
":: :_tangle__subcmd__help__subcmd__profile_commands" \
"*::: :->profile" \
&& ret=0

    case $state in
    (profile)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:tangle-help-profile-command-$line[1]:"
        case $line[1] in
            (show)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(run)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(version)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
}

(( $+functions[_tangle_commands] )) ||
_tangle_commands() {
    local commands; commands=(
'init:Create a repository over one or more remotes' \
'backup:Back up files and directories into a new snapshot' \
'snapshots:List snapshots' \
'ls:List the files in a snapshot' \
'restore:Restore a snapshot (or a path in it) under a target directory' \
'dump:Write a file of a snapshot, or a directory as a tar archive, to standard output' \
'mount:Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount' \
'verify:Check the repository on every remote (needs no password)' \
'repair:Rebuild missing or damaged shards and metadata copies (needs no password)' \
'delete:Delete snapshots and reclaim their space, re-encoding what pointed into it' \
'prune:Remove what interrupted runs left behind (nothing else)' \
'tag:Add, remove or set the tags of snapshots (each changed one is replaced by a copy)' \
'rewrite:Write new snapshots without the paths matching exclude patterns (--forget\: delete the old)' \
'copy:Copy snapshots from another repository (--from-repo) into this one' \
'import:Import another tool'\''s history\: \`import restic\` brings a restic repository'\''s snapshots' \
'unlock:Remove stale locks (left by a backup or delete that died)' \
'key:List, add, remove or change the passwords (key files) of the repository' \
'remote:List, add or replace remotes' \
'writer:Add, list or revoke writer keys\: backup hosts that may add history, never read or delete it' \
'find:Find files and directories by glob pattern in the snapshots' \
'diff:Show what changed between two snapshots' \
'stats:Sizes, dedup and compression of snapshots; storage per remote' \
'cat:Print a repository object, decoded and checked, as JSON (for debugging)' \
'completions:Print a shell completion script' \
'man:Write the man pages into a directory' \
'profile:Show the settings a profile gives (\`profile show\`)' \
'run:Run the profile'\''s backup, then delete by its policy, then verify (for cron)' \
'version:Show the version, target, features and the repository format versions' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle commands' commands "$@"
}
(( $+functions[_tangle__subcmd__backup_commands] )) ||
_tangle__subcmd__backup_commands() {
    local commands; commands=()
    _describe -t commands 'tangle backup commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat_commands] )) ||
_tangle__subcmd__cat_commands() {
    local commands; commands=(
'config:The repository config (no password needed)' \
'key:A key file (no password needed)' \
'snapshot:A snapshot record' \
'index:An index segment' \
'certificate:An extent certificate (no password needed)' \
'head:A writer'\''s head (no password needed)' \
'deletion:A deletion record (no password needed)' \
'tree:A tree blob (one directory)' \
'blob:A data blob\: its bytes (with --json\: where it is stored and its bytes in base64)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle cat commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__blob_commands] )) ||
_tangle__subcmd__cat__subcmd__blob_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat blob commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__certificate_commands] )) ||
_tangle__subcmd__cat__subcmd__certificate_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat certificate commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__config_commands] )) ||
_tangle__subcmd__cat__subcmd__config_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat config commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__deletion_commands] )) ||
_tangle__subcmd__cat__subcmd__deletion_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat deletion commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__head_commands] )) ||
_tangle__subcmd__cat__subcmd__head_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat head commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help_commands] )) ||
_tangle__subcmd__cat__subcmd__help_commands() {
    local commands; commands=(
'config:The repository config (no password needed)' \
'key:A key file (no password needed)' \
'snapshot:A snapshot record' \
'index:An index segment' \
'certificate:An extent certificate (no password needed)' \
'head:A writer'\''s head (no password needed)' \
'deletion:A deletion record (no password needed)' \
'tree:A tree blob (one directory)' \
'blob:A data blob\: its bytes (with --json\: where it is stored and its bytes in base64)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle cat help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__blob_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__blob_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help blob commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__certificate_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__certificate_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help certificate commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__config_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__config_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help config commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__deletion_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__deletion_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help deletion commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__head_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__head_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help head commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__index_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__index_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help index commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__key_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__key_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help key commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__snapshot_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__snapshot_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help snapshot commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__help__subcmd__tree_commands] )) ||
_tangle__subcmd__cat__subcmd__help__subcmd__tree_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat help tree commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__index_commands] )) ||
_tangle__subcmd__cat__subcmd__index_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat index commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__key_commands] )) ||
_tangle__subcmd__cat__subcmd__key_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat key commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__snapshot_commands] )) ||
_tangle__subcmd__cat__subcmd__snapshot_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat snapshot commands' commands "$@"
}
(( $+functions[_tangle__subcmd__cat__subcmd__tree_commands] )) ||
_tangle__subcmd__cat__subcmd__tree_commands() {
    local commands; commands=()
    _describe -t commands 'tangle cat tree commands' commands "$@"
}
(( $+functions[_tangle__subcmd__completions_commands] )) ||
_tangle__subcmd__completions_commands() {
    local commands; commands=()
    _describe -t commands 'tangle completions commands' commands "$@"
}
(( $+functions[_tangle__subcmd__copy_commands] )) ||
_tangle__subcmd__copy_commands() {
    local commands; commands=()
    _describe -t commands 'tangle copy commands' commands "$@"
}
(( $+functions[_tangle__subcmd__delete_commands] )) ||
_tangle__subcmd__delete_commands() {
    local commands; commands=()
    _describe -t commands 'tangle delete commands' commands "$@"
}
(( $+functions[_tangle__subcmd__diff_commands] )) ||
_tangle__subcmd__diff_commands() {
    local commands; commands=()
    _describe -t commands 'tangle diff commands' commands "$@"
}
(( $+functions[_tangle__subcmd__dump_commands] )) ||
_tangle__subcmd__dump_commands() {
    local commands; commands=()
    _describe -t commands 'tangle dump commands' commands "$@"
}
(( $+functions[_tangle__subcmd__find_commands] )) ||
_tangle__subcmd__find_commands() {
    local commands; commands=()
    _describe -t commands 'tangle find commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help_commands] )) ||
_tangle__subcmd__help_commands() {
    local commands; commands=(
'init:Create a repository over one or more remotes' \
'backup:Back up files and directories into a new snapshot' \
'snapshots:List snapshots' \
'ls:List the files in a snapshot' \
'restore:Restore a snapshot (or a path in it) under a target directory' \
'dump:Write a file of a snapshot, or a directory as a tar archive, to standard output' \
'mount:Mount snapshots as a read-only file system (FUSE) until Ctrl-C or umount' \
'verify:Check the repository on every remote (needs no password)' \
'repair:Rebuild missing or damaged shards and metadata copies (needs no password)' \
'delete:Delete snapshots and reclaim their space, re-encoding what pointed into it' \
'prune:Remove what interrupted runs left behind (nothing else)' \
'tag:Add, remove or set the tags of snapshots (each changed one is replaced by a copy)' \
'rewrite:Write new snapshots without the paths matching exclude patterns (--forget\: delete the old)' \
'copy:Copy snapshots from another repository (--from-repo) into this one' \
'import:Import another tool'\''s history\: \`import restic\` brings a restic repository'\''s snapshots' \
'unlock:Remove stale locks (left by a backup or delete that died)' \
'key:List, add, remove or change the passwords (key files) of the repository' \
'remote:List, add or replace remotes' \
'writer:Add, list or revoke writer keys\: backup hosts that may add history, never read or delete it' \
'find:Find files and directories by glob pattern in the snapshots' \
'diff:Show what changed between two snapshots' \
'stats:Sizes, dedup and compression of snapshots; storage per remote' \
'cat:Print a repository object, decoded and checked, as JSON (for debugging)' \
'completions:Print a shell completion script' \
'man:Write the man pages into a directory' \
'profile:Show the settings a profile gives (\`profile show\`)' \
'run:Run the profile'\''s backup, then delete by its policy, then verify (for cron)' \
'version:Show the version, target, features and the repository format versions' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__backup_commands] )) ||
_tangle__subcmd__help__subcmd__backup_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help backup commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat_commands] )) ||
_tangle__subcmd__help__subcmd__cat_commands() {
    local commands; commands=(
'config:The repository config (no password needed)' \
'key:A key file (no password needed)' \
'snapshot:A snapshot record' \
'index:An index segment' \
'certificate:An extent certificate (no password needed)' \
'head:A writer'\''s head (no password needed)' \
'deletion:A deletion record (no password needed)' \
'tree:A tree blob (one directory)' \
'blob:A data blob\: its bytes (with --json\: where it is stored and its bytes in base64)' \
    )
    _describe -t commands 'tangle help cat commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__blob_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__blob_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat blob commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__certificate_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__certificate_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat certificate commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__config_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__config_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat config commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__deletion_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__deletion_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat deletion commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__head_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__head_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat head commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__index_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__index_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat index commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__key_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__key_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat key commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__snapshot_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__snapshot_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat snapshot commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__cat__subcmd__tree_commands] )) ||
_tangle__subcmd__help__subcmd__cat__subcmd__tree_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help cat tree commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__completions_commands] )) ||
_tangle__subcmd__help__subcmd__completions_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help completions commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__copy_commands] )) ||
_tangle__subcmd__help__subcmd__copy_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help copy commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__delete_commands] )) ||
_tangle__subcmd__help__subcmd__delete_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help delete commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__diff_commands] )) ||
_tangle__subcmd__help__subcmd__diff_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help diff commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__dump_commands] )) ||
_tangle__subcmd__help__subcmd__dump_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help dump commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__find_commands] )) ||
_tangle__subcmd__help__subcmd__find_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help find commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__import_commands] )) ||
_tangle__subcmd__help__subcmd__import_commands() {
    local commands; commands=(
'restic:Import the snapshots of a restic repository (in a local directory)' \
    )
    _describe -t commands 'tangle help import commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__import__subcmd__restic_commands] )) ||
_tangle__subcmd__help__subcmd__import__subcmd__restic_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help import restic commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__init_commands] )) ||
_tangle__subcmd__help__subcmd__init_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help init commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__key_commands] )) ||
_tangle__subcmd__help__subcmd__key_commands() {
    local commands; commands=(
'list:List the keys (passwords) of the repository; \`*\` marks the one that opened it' \
'add:Add a password\: a new key file wrapping the same master key' \
'remove:Remove a key (password); the last key is never removed' \
'passwd:Change the password\: add a new key, then remove the one in use' \
    )
    _describe -t commands 'tangle help key commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__key__subcmd__add_commands] )) ||
_tangle__subcmd__help__subcmd__key__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help key add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__key__subcmd__list_commands] )) ||
_tangle__subcmd__help__subcmd__key__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help key list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__key__subcmd__passwd_commands] )) ||
_tangle__subcmd__help__subcmd__key__subcmd__passwd_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help key passwd commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__key__subcmd__remove_commands] )) ||
_tangle__subcmd__help__subcmd__key__subcmd__remove_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help key remove commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__ls_commands] )) ||
_tangle__subcmd__help__subcmd__ls_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help ls commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__man_commands] )) ||
_tangle__subcmd__help__subcmd__man_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help man commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__mount_commands] )) ||
_tangle__subcmd__help__subcmd__mount_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help mount commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__profile_commands] )) ||
_tangle__subcmd__help__subcmd__profile_commands() {
    local commands; commands=(
'show:Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***' \
    )
    _describe -t commands 'tangle help profile commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__profile__subcmd__show_commands] )) ||
_tangle__subcmd__help__subcmd__profile__subcmd__show_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help profile show commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__prune_commands] )) ||
_tangle__subcmd__help__subcmd__prune_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help prune commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__remote_commands] )) ||
_tangle__subcmd__help__subcmd__remote_commands() {
    local commands; commands=(
'list:Show the remotes, whether they answer, and what they hold' \
'add:Add a remote\: copy the metadata there and move a share of the existing shards onto it (\`rebalance\`), so old data gets the same spread as new data' \
'replace:Replace a dead or retired remote by a new empty one; then run \`repair\` to fill it' \
'rebalance:Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)' \
    )
    _describe -t commands 'tangle help remote commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__remote__subcmd__add_commands] )) ||
_tangle__subcmd__help__subcmd__remote__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help remote add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__remote__subcmd__list_commands] )) ||
_tangle__subcmd__help__subcmd__remote__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help remote list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__remote__subcmd__rebalance_commands] )) ||
_tangle__subcmd__help__subcmd__remote__subcmd__rebalance_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help remote rebalance commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__remote__subcmd__replace_commands] )) ||
_tangle__subcmd__help__subcmd__remote__subcmd__replace_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help remote replace commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__repair_commands] )) ||
_tangle__subcmd__help__subcmd__repair_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help repair commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__restore_commands] )) ||
_tangle__subcmd__help__subcmd__restore_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help restore commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__rewrite_commands] )) ||
_tangle__subcmd__help__subcmd__rewrite_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help rewrite commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__run_commands] )) ||
_tangle__subcmd__help__subcmd__run_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help run commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__snapshots_commands] )) ||
_tangle__subcmd__help__subcmd__snapshots_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help snapshots commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__stats_commands] )) ||
_tangle__subcmd__help__subcmd__stats_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help stats commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__tag_commands] )) ||
_tangle__subcmd__help__subcmd__tag_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help tag commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__unlock_commands] )) ||
_tangle__subcmd__help__subcmd__unlock_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help unlock commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__verify_commands] )) ||
_tangle__subcmd__help__subcmd__verify_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help verify commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__version_commands] )) ||
_tangle__subcmd__help__subcmd__version_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help version commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__writer_commands] )) ||
_tangle__subcmd__help__subcmd__writer_commands() {
    local commands; commands=(
'add:Make a writer key for one backup host\: it may add snapshots, never read or delete' \
'list:List the writers (needs no password)' \
'revoke:Revoke a writer\: its later heads are refused; what it wrote before stays' \
    )
    _describe -t commands 'tangle help writer commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__writer__subcmd__add_commands] )) ||
_tangle__subcmd__help__subcmd__writer__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help writer add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__writer__subcmd__list_commands] )) ||
_tangle__subcmd__help__subcmd__writer__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help writer list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__help__subcmd__writer__subcmd__revoke_commands] )) ||
_tangle__subcmd__help__subcmd__writer__subcmd__revoke_commands() {
    local commands; commands=()
    _describe -t commands 'tangle help writer revoke commands' commands "$@"
}
(( $+functions[_tangle__subcmd__import_commands] )) ||
_tangle__subcmd__import_commands() {
    local commands; commands=(
'restic:Import the snapshots of a restic repository (in a local directory)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle import commands' commands "$@"
}
(( $+functions[_tangle__subcmd__import__subcmd__help_commands] )) ||
_tangle__subcmd__import__subcmd__help_commands() {
    local commands; commands=(
'restic:Import the snapshots of a restic repository (in a local directory)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle import help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__import__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__import__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle import help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__import__subcmd__help__subcmd__restic_commands] )) ||
_tangle__subcmd__import__subcmd__help__subcmd__restic_commands() {
    local commands; commands=()
    _describe -t commands 'tangle import help restic commands' commands "$@"
}
(( $+functions[_tangle__subcmd__import__subcmd__restic_commands] )) ||
_tangle__subcmd__import__subcmd__restic_commands() {
    local commands; commands=()
    _describe -t commands 'tangle import restic commands' commands "$@"
}
(( $+functions[_tangle__subcmd__init_commands] )) ||
_tangle__subcmd__init_commands() {
    local commands; commands=()
    _describe -t commands 'tangle init commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key_commands] )) ||
_tangle__subcmd__key_commands() {
    local commands; commands=(
'list:List the keys (passwords) of the repository; \`*\` marks the one that opened it' \
'add:Add a password\: a new key file wrapping the same master key' \
'remove:Remove a key (password); the last key is never removed' \
'passwd:Change the password\: add a new key, then remove the one in use' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle key commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__add_commands] )) ||
_tangle__subcmd__key__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__help_commands] )) ||
_tangle__subcmd__key__subcmd__help_commands() {
    local commands; commands=(
'list:List the keys (passwords) of the repository; \`*\` marks the one that opened it' \
'add:Add a password\: a new key file wrapping the same master key' \
'remove:Remove a key (password); the last key is never removed' \
'passwd:Change the password\: add a new key, then remove the one in use' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle key help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__help__subcmd__add_commands] )) ||
_tangle__subcmd__key__subcmd__help__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key help add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__key__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__help__subcmd__list_commands] )) ||
_tangle__subcmd__key__subcmd__help__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key help list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__help__subcmd__passwd_commands] )) ||
_tangle__subcmd__key__subcmd__help__subcmd__passwd_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key help passwd commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__help__subcmd__remove_commands] )) ||
_tangle__subcmd__key__subcmd__help__subcmd__remove_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key help remove commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__list_commands] )) ||
_tangle__subcmd__key__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__passwd_commands] )) ||
_tangle__subcmd__key__subcmd__passwd_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key passwd commands' commands "$@"
}
(( $+functions[_tangle__subcmd__key__subcmd__remove_commands] )) ||
_tangle__subcmd__key__subcmd__remove_commands() {
    local commands; commands=()
    _describe -t commands 'tangle key remove commands' commands "$@"
}
(( $+functions[_tangle__subcmd__ls_commands] )) ||
_tangle__subcmd__ls_commands() {
    local commands; commands=()
    _describe -t commands 'tangle ls commands' commands "$@"
}
(( $+functions[_tangle__subcmd__man_commands] )) ||
_tangle__subcmd__man_commands() {
    local commands; commands=()
    _describe -t commands 'tangle man commands' commands "$@"
}
(( $+functions[_tangle__subcmd__mount_commands] )) ||
_tangle__subcmd__mount_commands() {
    local commands; commands=()
    _describe -t commands 'tangle mount commands' commands "$@"
}
(( $+functions[_tangle__subcmd__profile_commands] )) ||
_tangle__subcmd__profile_commands() {
    local commands; commands=(
'show:Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle profile commands' commands "$@"
}
(( $+functions[_tangle__subcmd__profile__subcmd__help_commands] )) ||
_tangle__subcmd__profile__subcmd__help_commands() {
    local commands; commands=(
'show:Print the effective settings (flags, environment, profile, defaults) and where each comes from; secrets are shown as ***' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle profile help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__profile__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__profile__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle profile help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__profile__subcmd__help__subcmd__show_commands] )) ||
_tangle__subcmd__profile__subcmd__help__subcmd__show_commands() {
    local commands; commands=()
    _describe -t commands 'tangle profile help show commands' commands "$@"
}
(( $+functions[_tangle__subcmd__profile__subcmd__show_commands] )) ||
_tangle__subcmd__profile__subcmd__show_commands() {
    local commands; commands=()
    _describe -t commands 'tangle profile show commands' commands "$@"
}
(( $+functions[_tangle__subcmd__prune_commands] )) ||
_tangle__subcmd__prune_commands() {
    local commands; commands=()
    _describe -t commands 'tangle prune commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote_commands] )) ||
_tangle__subcmd__remote_commands() {
    local commands; commands=(
'list:Show the remotes, whether they answer, and what they hold' \
'add:Add a remote\: copy the metadata there and move a share of the existing shards onto it (\`rebalance\`), so old data gets the same spread as new data' \
'replace:Replace a dead or retired remote by a new empty one; then run \`repair\` to fill it' \
'rebalance:Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle remote commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__add_commands] )) ||
_tangle__subcmd__remote__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__help_commands] )) ||
_tangle__subcmd__remote__subcmd__help_commands() {
    local commands; commands=(
'list:Show the remotes, whether they answer, and what they hold' \
'add:Add a remote\: copy the metadata there and move a share of the existing shards onto it (\`rebalance\`), so old data gets the same spread as new data' \
'replace:Replace a dead or retired remote by a new empty one; then run \`repair\` to fill it' \
'rebalance:Move shards of existing extents so every remote holds the share a new extent would give it (needs the password and every remote reachable)' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle remote help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__help__subcmd__add_commands] )) ||
_tangle__subcmd__remote__subcmd__help__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote help add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__remote__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__help__subcmd__list_commands] )) ||
_tangle__subcmd__remote__subcmd__help__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote help list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__help__subcmd__rebalance_commands] )) ||
_tangle__subcmd__remote__subcmd__help__subcmd__rebalance_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote help rebalance commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__help__subcmd__replace_commands] )) ||
_tangle__subcmd__remote__subcmd__help__subcmd__replace_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote help replace commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__list_commands] )) ||
_tangle__subcmd__remote__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__rebalance_commands] )) ||
_tangle__subcmd__remote__subcmd__rebalance_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote rebalance commands' commands "$@"
}
(( $+functions[_tangle__subcmd__remote__subcmd__replace_commands] )) ||
_tangle__subcmd__remote__subcmd__replace_commands() {
    local commands; commands=()
    _describe -t commands 'tangle remote replace commands' commands "$@"
}
(( $+functions[_tangle__subcmd__repair_commands] )) ||
_tangle__subcmd__repair_commands() {
    local commands; commands=()
    _describe -t commands 'tangle repair commands' commands "$@"
}
(( $+functions[_tangle__subcmd__restore_commands] )) ||
_tangle__subcmd__restore_commands() {
    local commands; commands=()
    _describe -t commands 'tangle restore commands' commands "$@"
}
(( $+functions[_tangle__subcmd__rewrite_commands] )) ||
_tangle__subcmd__rewrite_commands() {
    local commands; commands=()
    _describe -t commands 'tangle rewrite commands' commands "$@"
}
(( $+functions[_tangle__subcmd__run_commands] )) ||
_tangle__subcmd__run_commands() {
    local commands; commands=()
    _describe -t commands 'tangle run commands' commands "$@"
}
(( $+functions[_tangle__subcmd__snapshots_commands] )) ||
_tangle__subcmd__snapshots_commands() {
    local commands; commands=()
    _describe -t commands 'tangle snapshots commands' commands "$@"
}
(( $+functions[_tangle__subcmd__stats_commands] )) ||
_tangle__subcmd__stats_commands() {
    local commands; commands=()
    _describe -t commands 'tangle stats commands' commands "$@"
}
(( $+functions[_tangle__subcmd__tag_commands] )) ||
_tangle__subcmd__tag_commands() {
    local commands; commands=()
    _describe -t commands 'tangle tag commands' commands "$@"
}
(( $+functions[_tangle__subcmd__unlock_commands] )) ||
_tangle__subcmd__unlock_commands() {
    local commands; commands=()
    _describe -t commands 'tangle unlock commands' commands "$@"
}
(( $+functions[_tangle__subcmd__verify_commands] )) ||
_tangle__subcmd__verify_commands() {
    local commands; commands=()
    _describe -t commands 'tangle verify commands' commands "$@"
}
(( $+functions[_tangle__subcmd__version_commands] )) ||
_tangle__subcmd__version_commands() {
    local commands; commands=()
    _describe -t commands 'tangle version commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer_commands] )) ||
_tangle__subcmd__writer_commands() {
    local commands; commands=(
'add:Make a writer key for one backup host\: it may add snapshots, never read or delete' \
'list:List the writers (needs no password)' \
'revoke:Revoke a writer\: its later heads are refused; what it wrote before stays' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle writer commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__add_commands] )) ||
_tangle__subcmd__writer__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__help_commands] )) ||
_tangle__subcmd__writer__subcmd__help_commands() {
    local commands; commands=(
'add:Make a writer key for one backup host\: it may add snapshots, never read or delete' \
'list:List the writers (needs no password)' \
'revoke:Revoke a writer\: its later heads are refused; what it wrote before stays' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'tangle writer help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__help__subcmd__add_commands] )) ||
_tangle__subcmd__writer__subcmd__help__subcmd__add_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer help add commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__help__subcmd__help_commands] )) ||
_tangle__subcmd__writer__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer help help commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__help__subcmd__list_commands] )) ||
_tangle__subcmd__writer__subcmd__help__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer help list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__help__subcmd__revoke_commands] )) ||
_tangle__subcmd__writer__subcmd__help__subcmd__revoke_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer help revoke commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__list_commands] )) ||
_tangle__subcmd__writer__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer list commands' commands "$@"
}
(( $+functions[_tangle__subcmd__writer__subcmd__revoke_commands] )) ||
_tangle__subcmd__writer__subcmd__revoke_commands() {
    local commands; commands=()
    _describe -t commands 'tangle writer revoke commands' commands "$@"
}

if [ "$funcstack[1]" = "_tangle" ]; then
    _tangle "$@"
else
    compdef _tangle tangle
fi
