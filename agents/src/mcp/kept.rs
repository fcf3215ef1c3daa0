//! What the MCP server keeps between calls: in this process, or, with
//! several instances on PostgreSQL, among the shared MCP state, so that a
//! call another instance answers finds it. A task's note
//! ([`super::tasks::Note`]) and a person's draft in askdesk's form in a
//! host ([`super::hosted::Draft`]) are kept so.

use desk::PostgresStore;
use serde::{de::DeserializeOwned, Serialize};
use std::{
    collections::HashMap,
    marker::PhantomData,
    sync::{Arc, Mutex, PoisonError},
};

/// Something kept between calls, under a key of its own.
pub trait Kept: Clone + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The prefix of its rows among the shared MCP state.
    const ROW: &'static str;
    /// What it is, for the log.
    const WHAT: &'static str;
}

/// How many of a kind this process keeps at most, when it keeps them
/// itself: each is dropped when its ask ends, so only asks left open and
/// never shown again would gather.
const LOCAL_LIMIT: usize = 10_000;

/// Where things of kind `T` are kept.
pub struct Keeper<T> {
    local: Arc<Mutex<HashMap<String, String>>>,
    shared: Option<PostgresStore>,
    kind: PhantomData<fn() -> T>,
}

impl<T> Clone for Keeper<T> {
    fn clone(&self) -> Self {
        Self {
            local: self.local.clone(),
            shared: self.shared.clone(),
            kind: PhantomData,
        }
    }
}

impl<T> Default for Keeper<T> {
    /// Kept in this process.
    fn default() -> Self {
        Self {
            local: Arc::default(),
            shared: None,
            kind: PhantomData,
        }
    }
}

impl<T: Kept> Keeper<T> {
    /// Kept in `shared`, for every instance.
    pub fn shared(shared: PostgresStore) -> Self {
        Self {
            shared: Some(shared),
            ..Self::default()
        }
    }

    /// What is kept under `key`, if anything.
    pub async fn get(&self, key: &str) -> Option<T> {
        let json = match &self.shared {
            Some(store) => match store.session(&format!("{}{key}", T::ROW)).await {
                Ok(json) => json,
                Err(e) => {
                    tracing::warn!(key = %key, "{} was not read: {e}", T::WHAT);
                    None
                }
            },
            None => self.lock().get(key).cloned(),
        };
        json.and_then(|json| serde_json::from_str(&json).ok())
    }

    /// Keeps `value` under `key`.
    pub async fn keep(&self, key: &str, value: &T) {
        let json = serde_json::to_string(value).unwrap_or_default();
        match &self.shared {
            Some(store) => {
                if let Err(e) = store.keep_session(&format!("{}{key}", T::ROW), &json).await {
                    tracing::warn!(key = %key, "{} was not kept: {e}", T::WHAT);
                }
            }
            None => {
                let mut local = self.lock();
                if local.len() < LOCAL_LIMIT || local.contains_key(key) {
                    local.insert(key.to_owned(), json);
                } else {
                    tracing::warn!(key = %key, "{} was not kept: {LOCAL_LIMIT} are", T::WHAT);
                }
            }
        }
    }

    /// Forgets what is kept under `key`.
    pub async fn forget(&self, key: &str) {
        match &self.shared {
            Some(store) => {
                if let Err(e) = store.drop_session(&format!("{}{key}", T::ROW)).await {
                    tracing::debug!(key = %key, "{} was not dropped: {e}", T::WHAT);
                }
            }
            None => {
                self.lock().remove(key);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.local.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Thing(u32);

    impl Kept for Thing {
        const ROW: &'static str = "thing:";
        const WHAT: &'static str = "a thing";
    }

    #[tokio::test]
    async fn kept_until_forgotten_and_shared_by_clones() {
        let keeper = Keeper::<Thing>::default();
        let clone = keeper.clone();
        assert_eq!(keeper.get("a").await, None);
        keeper.keep("a", &Thing(1)).await;
        keeper.keep("a", &Thing(2)).await;
        assert_eq!(clone.get("a").await, Some(Thing(2)));
        assert_eq!(clone.get("b").await, None);
        clone.forget("a").await;
        assert_eq!(keeper.get("a").await, None);
    }
}
