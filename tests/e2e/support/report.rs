//! What the binary prints with `--json`: the backup report, and the reports of
//! verify / repair / remote (one JSON object whose `exit_code` is the process's).

use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

use super::command::{assert_no_panic, run_any, stderr_str, stdout_str};

#[derive(Debug, Clone)]
pub struct BackupReport {
    pub json: Value,
    pub snapshot_id: String,
    pub short_id: String,
    pub files_new: u64,
    pub files_changed: u64,
    pub files_unchanged: u64,
    pub dirs: u64,
    pub bytes_read: u64,
    pub bytes_added: u64,
    pub errors: Vec<String>,
}

pub fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Parse the output of `backup --json`: stdout must be exactly ONE JSON object.
pub fn parse_single_json_object(stdout: &[u8], what: &str) -> Value {
    let text =
        std::str::from_utf8(stdout).unwrap_or_else(|_| panic!("{what}: stdout is not UTF-8"));
    let values: Vec<Value> = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}):\n{text}"));
    assert_eq!(
        values.len(),
        1,
        "{what}: expected exactly one JSON value on stdout, got {}:\n{text}",
        values.len()
    );
    let v = values.into_iter().next().unwrap();
    assert!(
        v.is_object(),
        "{what}: stdout JSON is not an object:\n{text}"
    );
    v
}

impl BackupReport {
    pub fn parse(stdout: &[u8]) -> BackupReport {
        let json = parse_single_json_object(stdout, "backup --json");
        let num = |k: &str| -> u64 {
            json.get(k).and_then(Value::as_u64).unwrap_or_else(|| {
                panic!("backup report: field `{k}` missing or not a u64:\n{json:#}")
            })
        };
        let string = |k: &str| -> String {
            json.get(k)
                .and_then(Value::as_str)
                .unwrap_or_else(|| {
                    panic!("backup report: field `{k}` missing or not a string:\n{json:#}")
                })
                .to_string()
        };
        let snapshot_id = string("snapshot_id");
        let short_id = string("short_id");
        assert!(
            is_hex(&snapshot_id, 64),
            "snapshot_id is not 64 hex digits: {snapshot_id:?}"
        );
        assert!(
            is_hex(&short_id, 8),
            "short_id is not 8 hex digits: {short_id:?}"
        );
        assert!(
            snapshot_id.starts_with(&short_id),
            "short_id {short_id} is not a prefix of snapshot_id {snapshot_id}"
        );
        let errors = json
            .get("errors")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("backup report: `errors` missing or not an array:\n{json:#}"))
            .iter()
            .map(|e| {
                e.as_str()
                    .unwrap_or_else(|| panic!("backup report: error entry is not a string: {e}"))
                    .to_string()
            })
            .collect();
        BackupReport {
            snapshot_id,
            short_id,
            files_new: num("files_new"),
            files_changed: num("files_changed"),
            files_unchanged: num("files_unchanged"),
            dirs: num("dirs"),
            bytes_read: num("bytes_read"),
            bytes_added: num("bytes_added"),
            errors,
            json,
        }
    }
}

/// Run a command that prints one JSON object on stdout (`verify --json`, `repair
/// --json`, `backup --json`...); returns its exit code, the object and the output.
/// Fails on a panic, a timeout or output that is not one JSON object.
pub fn run_json(cmd: &mut Command, what: &str) -> (i32, Value, Output) {
    let out = run_any(cmd);
    let err = stderr_str(&out);
    assert!(
        !err.contains("panicked") && out.status.code() != Some(101),
        "{what}: panicked\nstderr:\n{err}"
    );
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal\nstderr:\n{err}"));
    let text = stdout_str(&out);
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!("{what}: stdout is not one JSON value ({e}); exit {code}\nstdout:\n{text}\nstderr:\n{err}")
    });
    (code, v, out)
}

/// The `findings` of a `verify --json` report.
pub fn verify_findings(report: &Value) -> Vec<Value> {
    report["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("verify report without a findings array:\n{report:#}"))
        .clone()
}

/// Findings of a `verify --json` report that are not information (i.e. damage).
pub fn verify_damage(report: &Value) -> Vec<Value> {
    verify_findings(report)
        .into_iter()
        .filter(|f| f["severity"] != "info")
        .collect()
}

/// Run a `--json` report command (verify, repair, ...): no panic, exactly one JSON
/// object on stdout whose `exit_code` is the process's exit code. Returns (exit code,
/// object).
pub fn run_report(cmd: &mut Command, what: &str) -> (i32, Value) {
    let (code, v, out) = run_json(cmd, what);
    assert_no_panic(&out, what);
    assert!(
        v.is_object(),
        "{what}: expected one JSON object (exit {code})\nstdout:\n{}\nstderr:\n{}",
        stdout_str(&out),
        stderr_str(&out)
    );
    assert_eq!(
        v["exit_code"].as_i64(),
        Some(code as i64),
        "{what}: `exit_code` in the JSON differs from the process exit code\n{v:#}"
    );
    (code, v)
}

/// Run a `--json` command that must succeed; its stdout as JSON.
pub fn json_ok(cmd: &mut Command, what: &str) -> Value {
    let o = run_any(cmd);
    assert_no_panic(&o, what);
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr_str(&o));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}): {}", stdout_str(&o)))
}

/// The `kind` of a verify finding ("" if absent).
pub fn finding_kind(f: &Value) -> &str {
    f["kind"].as_str().unwrap_or("")
}

/// Some finding of the verify report `v` is of `kind` (the failure shows them all).
#[track_caller]
pub fn assert_has_finding(v: &Value, kind: &str, what: &str) {
    assert!(
        verify_findings(v).iter().any(|f| finding_kind(f) == kind),
        "{what}: no {kind} finding:\n{}",
        show_findings(v)
    );
}

/// One line per finding of a verify report, for failure messages.
pub fn show_findings(v: &Value) -> String {
    verify_findings(v)
        .iter()
        .map(|f| {
            format!(
                "  [{}] {} remote={} path={} extent={} shard={}: {}",
                f["severity"].as_str().unwrap_or("?"),
                finding_kind(f),
                f["remote"].as_str().unwrap_or("-"),
                f["path"].as_str().unwrap_or("-"),
                f["extent"].as_str().map_or("-", |e| &e[..8.min(e.len())]),
                f["shard"],
                f["message"].as_str().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Assert a report command's exit code, showing the findings when it differs.
pub fn expect_code(code: i32, want: i32, v: &Value, what: &str) {
    assert_eq!(
        code,
        want,
        "{what}: exit code; findings:\n{}",
        show_findings(v)
    );
}

/// The `actions` of a `repair --json` report.
pub fn repair_actions(v: &Value) -> Vec<Value> {
    v["actions"]
        .as_array()
        .unwrap_or_else(|| panic!("no `actions` array in\n{v:#}"))
        .clone()
}
