//! Moved to tests/common/servers.rs (`mod common;` then `common::servers`). This shim
//! keeps `#[path = "support/servers.rs"] mod servers;` in remote_conformance.rs
//! compiling until that file switches; delete it then.
#![allow(dead_code)]

include!("../common/servers.rs");
