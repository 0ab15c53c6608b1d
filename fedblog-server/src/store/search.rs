//! Full-text search of statuses (being written).
