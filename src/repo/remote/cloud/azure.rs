//! `az://container/prefix`: Azure Blob Storage.
//!
//! Configuration comes from the usual `AZURE_*` environment variables, as `object_store`
//! reads them: `AZURE_STORAGE_ACCOUNT_NAME` with `AZURE_STORAGE_ACCOUNT_KEY` (or
//! `AZURE_STORAGE_SAS_KEY`, a service principal's `AZURE_STORAGE_CLIENT_ID`,
//! `AZURE_STORAGE_CLIENT_SECRET` and `AZURE_STORAGE_TENANT_ID`, a managed identity),
//! `AZURE_STORAGE_ENDPOINT` for another endpoint, and `AZURE_STORAGE_USE_EMULATOR=true`
//! for Azurite on `AZURITE_BLOB_STORAGE_URL` (default `http://127.0.0.1:10000`).

use std::sync::Arc;

use object_store::ClientConfigKey;
use object_store::azure::{AzureConfigKey, MicrosoftAzureBuilder};

use super::errors::error_text;
use super::{
    CloudRemote, Provider, client_options, is_truthy, parse_url, retry_config, settings_from_env,
};
use crate::error::Result;
use crate::remote::RemoteError;

impl CloudRemote {
    /// Open `az://container/prefix` configured from the environment, with some `AZURE_*`
    /// settings overridden (as if they were set in the environment).
    pub(crate) fn open_azure(url: &str, overrides: &[(&str, &str)]) -> Result<CloudRemote> {
        let (container, prefix) = parse_url(url, Provider::Azure)?;
        let mut builder = MicrosoftAzureBuilder::new()
            .with_client_options(client_options())
            .with_retry(retry_config());
        let env = settings_from_env("AZURE_", overrides);
        for (k, v) in &env {
            if let Ok(key) = k.to_ascii_lowercase().parse::<AzureConfigKey>() {
                builder = builder.with_config(key, v.clone());
            }
        }
        builder = builder.with_container_name(&container);
        let value = |k: AzureConfigKey| builder.get_config_value(&k).filter(|v| !v.is_empty());
        let truthy = |v: Option<String>| v.is_some_and(|v| is_truthy(&v));
        let emulator = truthy(value(AzureConfigKey::UseEmulator));
        let endpoint = if emulator {
            std::env::var("AZURITE_BLOB_STORAGE_URL")
                .unwrap_or_else(|_| "http://127.0.0.1:10000".to_string())
        } else {
            value(AzureConfigKey::Endpoint).unwrap_or_else(|| {
                match value(AzureConfigKey::AccountName) {
                    Some(account) => format!("https://{account}.blob.core.windows.net"),
                    None => "Azure Blob Storage".to_string(),
                }
            })
        };
        // The emulator is plain http by design; anything else must say so.
        let plain_http = !emulator
            && endpoint.starts_with("http://")
            && !truthy(value(AzureConfigKey::Client(ClientConfigKey::AllowHttp)));
        let store = builder.build().map_err(|e| RemoteError::Config {
            url: url.to_string(),
            what: format!("invalid Azure configuration: {}", error_text(&e)),
            source: Some(e.into()),
        })?;
        let at = (container, prefix);
        Ok(CloudRemote {
            plain_http,
            ..CloudRemote::new(url, Provider::Azure, at, endpoint, Arc::new(store))
        })
    }
}
