//! Client applications. <https://docs.joinmastodon.org/methods/apps/>
pub mod create_app;
pub mod verify_app_credentials;
