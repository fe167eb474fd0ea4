//! An in-memory remote for unit tests and simulations.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;
use bytes::Bytes;

use super::{ObjectInfo, Remote, RemoteError, WriteAccess};
use crate::error::{Error, Result};

pub struct MemoryRemote {
    url: String,
    objects: Mutex<BTreeMap<String, Bytes>>,
}

impl MemoryRemote {
    pub fn new(url: &str) -> Self {
        MemoryRemote {
            url: url.to_string(),
            objects: Mutex::new(BTreeMap::new()),
        }
    }

    fn objects(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Bytes>> {
        // A panic while holding the lock cannot leave a map half-updated; keep going.
        self.objects.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn missing(&self, path: &str) -> Error {
        RemoteError::not_found(&self.url, path).into()
    }
}

#[async_trait]
impl Remote for MemoryRemote {
    fn url(&self) -> &str {
        &self.url
    }
    async fn put(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        super::check_path(&self.url, path)?;
        self.objects().insert(path.to_string(), data);
        Ok(())
    }
    async fn put_new(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        super::check_path(&self.url, path)?;
        let mut o = self.objects();
        if o.contains_key(path) {
            return Ok(false);
        }
        o.insert(path.to_string(), data);
        Ok(true)
    }
    async fn get(&self, path: &str) -> Result<Bytes> {
        super::check_path(&self.url, path)?;
        self.objects()
            .get(path)
            .cloned()
            .ok_or_else(|| self.missing(path))
    }
    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let data = self.get(path).await?;
        let end = super::range_end(&self.url, path, offset, len, data.len() as u64)?;
        let (start, end) = (offset as usize, end as usize);
        Ok(data.slice(start..end))
    }
    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        let size = self
            .objects()
            .get(path)
            .map(|d| d.len() as u64)
            .ok_or_else(|| self.missing(path))?;
        Ok(ObjectInfo {
            path: path.to_string(),
            size,
        })
    }
    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let dir = if prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", prefix.trim_end_matches('/'))
        };
        Ok(self
            .objects()
            .iter()
            .filter(|(k, _)| k.starts_with(&dir))
            .map(|(k, v)| ObjectInfo {
                path: k.clone(),
                size: v.len() as u64,
            })
            .collect())
    }
    async fn delete(&self, _: WriteAccess, path: &str) -> Result<()> {
        self.objects().remove(path);
        Ok(())
    }
    async fn exists(&self) -> Result<bool> {
        Ok(true)
    }
    async fn create(&self, _: WriteAccess) -> Result<()> {
        Ok(())
    }
}
