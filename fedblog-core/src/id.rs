//! Sortable snowflake-style ids: milliseconds since the Unix epoch shifted left 16 bits, plus a sequence.

use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A 64-bit id that sorts by creation time. It is a string on the wire, as Mastodon's ids are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(pub u64);

impl Id {
    /// The smallest id that can be made at `millis` (used for time-based range scans).
    pub fn floor_at_millis(millis: i64) -> Id {
        Id((millis.max(0) as u64) << 16)
    }

    /// The creation time encoded in the id, in milliseconds since the epoch.
    pub fn millis(self) -> i64 {
        (self.0 >> 16) as i64
    }

    /// The id as the signed integer that SQL databases store.
    pub fn as_i64(self) -> i64 {
        self.0 as i64
    }

    /// The id from a signed integer column.
    pub fn from_i64(v: i64) -> Id {
        Id(v as u64)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Id {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim().parse::<u64>().map(Id)
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            S(String),
            N(u64),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(Id(n)),
            Raw::S(s) => s
                .parse()
                .map_err(|_| serde::de::Error::custom(format!("invalid id: {s:?}"))),
        }
    }
}

/// Bits of an id's low 16 that name the process (node) that made it.
pub const NODE_BITS: u32 = 8;

/// Makes ids that increase strictly within one process.
///
/// The low 16 bits are a sequence (high 8 bits, starting at a random value each millisecond)
/// and the node of the process (low 8 bits). Processes writing to one database take different
/// nodes (the server claims one from the database when it starts), so their ids never collide;
/// a process that makes more than its share in one millisecond borrows from the next.
pub struct IdGenerator {
    last: Mutex<u64>,
    node: u64,
}

impl Default for IdGenerator {
    fn default() -> Self {
        Self::with_node(0)
    }
}

impl IdGenerator {
    /// A generator for node `node` (0 to 255).
    pub fn with_node(node: u8) -> Self {
        IdGenerator {
            last: Mutex::new(0),
            node: node as u64,
        }
    }

    /// The node whose ids this makes.
    pub fn node(&self) -> u8 {
        self.node as u8
    }

    /// Next id for the current time.
    pub fn next(&self) -> Id {
        self.next_at(chrono::Utc::now().timestamp_millis())
    }

    /// Next id for a given time (in milliseconds), still strictly greater than the last one made.
    pub fn next_at(&self, millis: i64) -> Id {
        let base = (millis.max(0) as u64) << 16;
        // Half the sequence range at most, to leave room for the ids that follow in this
        // millisecond.
        let start = (rand::random::<u8>() as u64 & 0x7f) << NODE_BITS;
        let candidate = base | start | self.node;
        let mut last = match self.last.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        let id = if candidate > *last {
            candidate
        } else {
            // The next sequence number after the last id, same node.
            ((*last >> NODE_BITS) + 1) << NODE_BITS | self.node
        };
        *last = id;
        Id(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_increase_and_round_trip_as_strings() {
        let g = IdGenerator::default();
        let a = g.next();
        let b = g.next();
        assert!(b > a);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, format!("\"{}\"", a.0));
        let back: Id = serde_json::from_str(&json).unwrap();
        assert_eq!(back, a);
        let num: Id = serde_json::from_str("42").unwrap();
        assert_eq!(num, Id(42));
        assert!(serde_json::from_str::<Id>("\"x1\"").is_err());
    }

    #[test]
    fn nodes_never_make_the_same_id() {
        let (a, b) = (IdGenerator::with_node(1), IdGenerator::with_node(2));
        let mut seen = std::collections::HashSet::new();
        // Many ids in one and the same millisecond (sequences overflow into the next ones).
        for _ in 0..2_000 {
            for g in [&a, &b] {
                let id = g.next_at(5_000);
                assert!(seen.insert(id), "{id} made twice");
                assert_eq!(id.0 & 0xff, g.node() as u64);
            }
        }
        let ids: Vec<_> = (0..300).map(|_| a.next_at(7_000)).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn ids_sort_by_time() {
        let g = IdGenerator::default();
        let early = g.next_at(1_000);
        let late = IdGenerator::default().next_at(2_000);
        assert!(late > early);
        assert_eq!(early.millis(), 1_000);
        assert!(Id::floor_at_millis(2_000) <= late);
    }
}
