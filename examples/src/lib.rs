//! Examples of embedding fedblog-core; run them with `cargo run -p fedblog-examples --example NAME`.
