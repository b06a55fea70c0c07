//! Shared helpers for the corpus tests live in the integration tests.
