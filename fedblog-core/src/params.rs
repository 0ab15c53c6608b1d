//! Request parameters: query strings, form bodies and JSON bodies merged into one JSON object,
//! and lenient deserializers for the loosely typed values clients send (`"true"`, `"1"`, `"20"`).

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// Parameters of one request, built up from the path, the query string and the body, with the
/// files of a multipart body kept apart (they never pass through JSON).
#[derive(Clone, Debug, Default)]
pub struct Params(Map<String, Value>, Vec<Upload>, usize);

/// Most brackets one form key may nest (`a[b][c]` nests 2). Rack's own limit is 32; no
/// parameter of the API nests more than 3.
pub const MAX_DEPTH: usize = 32;

/// Most form or query pairs one request may carry (Rack's limit too).
pub const MAX_PARAMS: usize = 4096;

/// A query string or form body that is refused before it is read into parameters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// A key nests more than [`MAX_DEPTH`] brackets.
    #[error("Invalid parameters: a key is nested more than {MAX_DEPTH} levels deep")]
    TooDeep,
    /// More than [`MAX_PARAMS`] pairs.
    #[error("Invalid parameters: more than {MAX_PARAMS} of them")]
    TooMany,
}

/// A file part of a multipart body.
#[derive(Clone, PartialEq, Eq)]
pub struct Upload {
    /// The part's field name (`avatar`).
    pub name: String,
    /// The file name the client gave (never used to store the file).
    pub file_name: Option<String>,
    /// The content type the client claimed (never trusted).
    pub content_type: Option<String>,
    /// The bytes.
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload")
            .field("name", &self.name)
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("len", &self.bytes.len())
            .finish()
    }
}

impl Params {
    /// No parameters.
    pub fn new() -> Self {
        Params(Map::new(), Vec::new(), 0)
    }

    /// Adds an uploaded file. A later file with the same field name replaces an earlier one.
    pub fn add_file(&mut self, upload: Upload) {
        self.1.retain(|u| u.name != upload.name);
        self.1.push(upload);
    }

    /// The uploaded file of a field, if any.
    pub fn file(&self, name: &str) -> Option<&Upload> {
        self.1.iter().find(|u| u.name == name)
    }

    /// Takes the uploaded files out of the parameters.
    pub fn take_files(&mut self) -> Vec<Upload> {
        std::mem::take(&mut self.1)
    }

    /// Adds `application/x-www-form-urlencoded` text (a query string or a form body).
    ///
    /// Fails, adding nothing more, on a key nested deeper than [`MAX_DEPTH`] or past
    /// [`MAX_PARAMS`] pairs in all (the limits Rack, which Mastodon runs on, also applies).
    pub fn add_urlencoded(&mut self, text: &str) -> Result<(), ParamsError> {
        for (k, v) in form_urlencoded::parse(text.as_bytes()) {
            self.add_pair(&k, Value::String(v.into_owned()))?;
        }
        Ok(())
    }

    /// Adds one form-style pair. `a[]` appends to an array, `a[b]` nests, `a[0][b]` nests by index.
    /// `a[][]` appends like `a[]`: no parameter of the API is an array of arrays, and Mastodon.py
    /// sends its list parameters whose names already end in `[]` (`id[]`) that way.
    ///
    /// Fails on a key nested deeper than [`MAX_DEPTH`] brackets, or on the pair after
    /// [`MAX_PARAMS`]; nothing is added then.
    pub fn add_pair(&mut self, key: &str, value: Value) -> Result<(), ParamsError> {
        if self.2 >= MAX_PARAMS {
            return Err(ParamsError::TooMany);
        }
        let (head, mut rest) = split_key(key)?;
        if head.is_empty() {
            return Ok(());
        }
        self.2 += 1;
        while rest.len() >= 2 && rest[rest.len() - 1].is_empty() && rest[rest.len() - 2].is_empty()
        {
            rest.pop();
        }
        insert_path(&mut self.0, head, &rest, value);
        Ok(())
    }

    /// Merges a JSON body. A body that is not an object is ignored (it has no named fields).
    pub fn add_json(&mut self, body: Value) {
        if let Value::Object(map) = body {
            for (k, v) in map {
                // JSON clients sometimes send `id[]` keys too.
                let key = k.strip_suffix("[]").map(str::to_string).unwrap_or(k);
                self.0.insert(key, v);
            }
        }
    }

    /// Sets a path parameter (these win over query and body values of the same name).
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        self.0.insert(key.to_string(), Value::String(value.into()));
    }

    /// Reads a plain string parameter.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// Removes a parameter, returning it.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.0.remove(key)
    }

    /// The parameters as one JSON object (uploaded files are not part of it).
    pub fn into_value(self) -> Value {
        Value::Object(self.0)
    }

    /// Deserializes the parameters into a request type; failures name the offending field.
    pub fn parse<T: serde::de::DeserializeOwned>(self) -> Result<T, String> {
        serde_json::from_value(self.into_value()).map_err(|e| e.to_string())
    }
}

/// Splits `a[b][]` into `a` and `["b", ""]`; more than [`MAX_DEPTH`] brackets is an error
/// found before any of them is collected.
fn split_key(key: &str) -> Result<(&str, Vec<&str>), ParamsError> {
    let Some(i) = key.find('[') else {
        return Ok((key, vec![]));
    };
    let head = &key[..i];
    let mut rest = vec![];
    let mut tail = &key[i..];
    while let Some(stripped) = tail.strip_prefix('[') {
        match stripped.find(']') {
            Some(j) => {
                if rest.len() == MAX_DEPTH {
                    return Err(ParamsError::TooDeep);
                }
                rest.push(&stripped[..j]);
                tail = &stripped[j + 1..];
            }
            None => break,
        }
    }
    Ok((head, rest))
}

/// Stores `value` under `head` and the nested keys of `rest`, walking down one level a turn
/// (a loop, not recursion, so no key can deepen the stack).
fn insert_path(map: &mut Map<String, Value>, head: &str, rest: &[&str], value: Value) {
    let (mut map, mut head, mut rest) = (map, head, rest);
    loop {
        let Some((&key, more)) = rest.split_first() else {
            map.insert(head.to_string(), value);
            return;
        };
        if key.is_empty() {
            let entry = map
                .entry(head.to_string())
                .or_insert_with(|| Value::Array(vec![]));
            if !entry.is_array() {
                *entry = Value::Array(vec![]);
            }
            let Value::Array(arr) = entry else {
                return;
            };
            let Some((&next, after)) = more.split_first() else {
                arr.push(value);
                return;
            };
            // `a[][b]=x`: start a new element when the last one already has `b`.
            let need_new = match arr.last() {
                Some(Value::Object(o)) => o.contains_key(next),
                _ => true,
            };
            if need_new {
                arr.push(Value::Object(Map::new()));
            }
            let Some(Value::Object(o)) = arr.last_mut() else {
                return;
            };
            (map, head, rest) = (o, next, after);
        } else {
            let entry = map
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            let Value::Object(obj) = entry else {
                return;
            };
            (map, head, rest) = (obj, key, more);
        }
    }
}

/// Lenient deserializers for request fields.
pub mod de {
    use super::*;

    /// A boolean as these deserializers read one (`None`: not a boolean).
    pub fn bool_of(v: &Value) -> Option<bool> {
        match v {
            Value::Bool(b) => Some(*b),
            Value::Number(n) => Some(n.as_i64() != Some(0)),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" | "t" => Some(true),
                "false" | "0" | "off" | "no" | "f" | "" => Some(false),
                _ => None,
            },
            Value::Null => Some(false),
            _ => None,
        }
    }

    /// A boolean from `true`, `"true"`, `"1"`, `"on"` (and their opposites); absent means false.
    pub fn bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        let v = Value::deserialize(d)?;
        bool_of(&v).ok_or_else(|| serde::de::Error::custom(format!("invalid boolean: {v}")))
    }

    /// An optional boolean; `null` or an empty string is absent.
    pub fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
        let v = Value::deserialize(d)?;
        match &v {
            Value::Null => Ok(None),
            Value::String(s) if s.is_empty() => Ok(None),
            _ => bool_of(&v)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom(format!("invalid boolean: {v}"))),
        }
    }

    /// An optional integer from a number or a numeric string; empty is absent.
    pub fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        let v = Value::deserialize(d)?;
        match &v {
            Value::Null => Ok(None),
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().map(|f| f as i64))
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom("invalid integer")),
            Value::String(s) if s.trim().is_empty() => Ok(None),
            Value::String(s) => s
                .trim()
                .parse::<i64>()
                .map(Some)
                .map_err(|_| serde::de::Error::custom(format!("invalid integer: {s:?}"))),
            _ => Err(serde::de::Error::custom(format!("invalid integer: {v}"))),
        }
    }

    /// An optional string; an empty string is absent. Numbers and booleans become text.
    pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        let v = Value::deserialize(d)?;
        match v {
            Value::Null => Ok(None),
            Value::String(s) if s.is_empty() => Ok(None),
            Value::String(s) => Ok(Some(s)),
            Value::Number(n) => Ok(Some(n.to_string())),
            Value::Bool(b) => Ok(Some(b.to_string())),
            other => Err(serde::de::Error::custom(format!(
                "expected a string, got {other}"
            ))),
        }
    }

    /// A list from an array, a single value, or an index-keyed object (`a[0]=x&a[1]=y`).
    pub fn list<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        let v = Value::deserialize(d)?;
        let items: Vec<Value> = match v {
            Value::Null => vec![],
            Value::Array(a) => a,
            Value::Object(o) => {
                let mut pairs: Vec<(String, Value)> = o.into_iter().collect();
                pairs.sort_by_key(|(k, _)| k.parse::<u64>().unwrap_or(u64::MAX));
                pairs.into_iter().map(|(_, v)| v).collect()
            }
            Value::String(s) if s.is_empty() => vec![],
            other => vec![other],
        };
        items
            .into_iter()
            .map(|x| serde_json::from_value(x).map_err(serde::de::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Defect: a key nested 10,000 levels deep overflowed the stack and aborted the server.
    #[test]
    fn deeply_nested_keys_are_refused_without_recursion() {
        let deep = format!("a{}=1", "[x]".repeat(10_000));
        let mut p = Params::new();
        assert_eq!(p.add_urlencoded(&deep), Err(ParamsError::TooDeep));
        assert_eq!(p.into_value(), serde_json::json!({}));
        // The limit itself is accepted and nests exactly that deep.
        let at_limit = format!("a{}=1", "[x]".repeat(MAX_DEPTH));
        let mut p = Params::new();
        p.add_urlencoded(&at_limit).unwrap();
        let mut v = &p.into_value()["a"];
        for _ in 0..MAX_DEPTH {
            v = &v["x"];
        }
        assert_eq!(v, &serde_json::json!("1"));
        let over = format!("a{}=1", "[]".repeat(MAX_DEPTH + 1));
        assert_eq!(
            Params::new().add_urlencoded(&over),
            Err(ParamsError::TooDeep)
        );
    }

    #[test]
    fn too_many_pairs_are_refused() {
        let mut p = Params::new();
        let many = vec!["k[]=1"; MAX_PARAMS].join("&");
        p.add_urlencoded(&many).unwrap();
        assert_eq!(p.add_pair("one", "more".into()), Err(ParamsError::TooMany));
        assert_eq!(
            p.into_value()["k"].as_array().map(Vec::len),
            Some(MAX_PARAMS)
        );
    }

    #[test]
    fn doubled_array_brackets_append_like_one_pair() {
        let mut p = Params::new();
        p.add_urlencoded("id%5B%5D%5B%5D=1&id[][]=2&tag[][][]=x")
            .unwrap();
        let v = p.into_value();
        assert_eq!(v["id"], serde_json::json!(["1", "2"]));
        assert_eq!(v["tag"], serde_json::json!(["x"]));
    }

    #[test]
    fn form_keys_nest_and_collect_arrays() {
        let mut p = Params::new();
        p.add_urlencoded("id[]=1&id[]=2&source[privacy]=private&fields_attributes[0][name]=a&fields_attributes[0][value]=b&limit=5").unwrap();
        let v = p.into_value();
        assert_eq!(v["id"], serde_json::json!(["1", "2"]));
        assert_eq!(v["source"]["privacy"], "private");
        assert_eq!(v["fields_attributes"]["0"]["value"], "b");
        assert_eq!(v["limit"], "5");
    }

    #[test]
    fn array_of_objects_form_keys() {
        let mut p = Params::new();
        p.add_urlencoded("f[][name]=a&f[][value]=1&f[][name]=b&f[][value]=2")
            .unwrap();
        assert_eq!(
            p.into_value()["f"],
            serde_json::json!([{"name":"a","value":"1"},{"name":"b","value":"2"}])
        );
    }

    #[test]
    fn files_stay_out_of_the_json() {
        let mut p = Params::new();
        p.add_urlencoded("display_name=x").unwrap();
        let upload = |bytes: &[u8]| Upload {
            name: "avatar".into(),
            file_name: Some("me.png".into()),
            content_type: Some("image/png".into()),
            bytes: bytes.to_vec(),
        };
        p.add_file(upload(b"first"));
        p.add_file(upload(b"second"));
        assert_eq!(
            p.file("avatar").map(|u| u.bytes.as_slice()),
            Some(&b"second"[..])
        );
        assert!(format!("{:?}", p.file("avatar").unwrap()).contains("len: 6"));
        let files = p.take_files();
        assert_eq!(files.len(), 1);
        assert!(p.file("avatar").is_none());
        assert_eq!(p.into_value(), serde_json::json!({"display_name": "x"}));
    }

    #[derive(Debug, Deserialize)]
    struct Sample {
        #[serde(default, deserialize_with = "de::opt_bool")]
        flag: Option<bool>,
        #[serde(default, deserialize_with = "de::opt_i64")]
        n: Option<i64>,
        #[serde(default, deserialize_with = "de::list")]
        ids: Vec<String>,
    }

    #[test]
    fn lenient_values() {
        for (text, want) in [
            ("flag=true", Some(true)),
            ("flag=1", Some(true)),
            ("flag=False", Some(false)),
            ("", None),
        ] {
            let mut p = Params::new();
            p.add_urlencoded(text).unwrap();
            assert_eq!(p.parse::<Sample>().unwrap().flag, want, "{text}");
        }
        let mut p = Params::new();
        p.add_json(serde_json::json!({"n": "12", "ids": "7"}));
        let s: Sample = p.parse().unwrap();
        assert_eq!((s.n, s.ids), (Some(12), vec!["7".to_string()]));
        let mut p = Params::new();
        p.add_urlencoded("n=abc").unwrap();
        assert!(p.parse::<Sample>().unwrap_err().contains("invalid integer"));
    }
}
