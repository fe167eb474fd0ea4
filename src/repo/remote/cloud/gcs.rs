//! `gs://bucket/prefix`: Google Cloud Storage.
//!
//! Configuration comes from the usual `GOOGLE_*` environment variables, as `object_store`
//! reads them: `GOOGLE_SERVICE_ACCOUNT` (or `GOOGLE_APPLICATION_CREDENTIALS`: the path of a
//! service account's JSON key), `GOOGLE_SERVICE_ACCOUNT_KEY` (the key itself), or the
//! application default credentials of `gcloud` and of instances on Google Cloud.

use std::sync::Arc;

use object_store::gcp::{GoogleCloudStorageBuilder, GoogleConfigKey};

use super::errors::error_text;
use super::{CloudRemote, Provider, client_options, parse_url, retry_config, settings_from_env};
use crate::error::Result;
use crate::remote::RemoteError;

impl CloudRemote {
    /// Open `gs://bucket/prefix` configured from the environment, with some `GOOGLE_*`
    /// settings overridden (as if they were set in the environment).
    pub(crate) fn open_gcs(url: &str, overrides: &[(&str, &str)]) -> Result<CloudRemote> {
        let at = parse_url(url, Provider::Gcs)?;
        let mut builder = GoogleCloudStorageBuilder::new()
            .with_client_options(client_options())
            .with_retry(retry_config());
        for (k, v) in &settings_from_env("GOOGLE_", overrides) {
            if let Ok(key) = k.to_ascii_lowercase().parse::<GoogleConfigKey>() {
                builder = builder.with_config(key, v.clone());
            }
        }
        builder = builder.with_bucket_name(&at.0);
        let store = builder.build().map_err(|e| RemoteError::Config {
            url: url.to_string(),
            what: format!(
                "invalid Google Cloud Storage configuration: {}",
                error_text(&e)
            ),
            source: Some(e.into()),
        })?;
        let endpoint = "Google Cloud Storage".to_string();
        Ok(CloudRemote::new(
            url,
            Provider::Gcs,
            at,
            endpoint,
            Arc::new(store),
        ))
    }
}
