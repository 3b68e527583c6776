#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
