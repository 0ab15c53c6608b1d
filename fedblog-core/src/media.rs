//! Media files: recognising an upload's format by its leading bytes ([`MediaFormat`]), and the
//! [`MediaProcessor`] trait that makes previews and BlurHashes in the background and sizes
//! avatars and headers ([`ImageGeometry`]).
//!
//! Core only reads what is cheap at upload time (format, image dimensions). The heavy part
//! (decoding, scaling, hashing) runs through the app's `MediaProcessor` (in a durable job for
//! media attachments, in the request for profile images); the server ships one built on the
//! `image` crate, an embedder may plug in its own, and the default [`NoProcessing`] leaves
//! previews to the original file and stores profile images as they were sent.

use async_trait::async_trait;

use crate::files::ImageKind;
use crate::store::MediaKind;

/// An accepted upload format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MediaFormat {
    /// PNG, JPEG, GIF or WebP.
    Image(ImageKind),
    /// MP4 (ISO base media, `ftyp` box, not QuickTime or audio-only brands).
    Mp4,
    /// QuickTime movie.
    Mov,
    /// WebM (Matroska).
    Webm,
    /// MP3 (with an ID3 tag or a frame sync).
    Mp3,
    /// Ogg (Vorbis or Opus).
    Ogg,
    /// WAV.
    Wav,
    /// FLAC.
    Flac,
    /// MPEG-4 audio (`M4A ` brand).
    M4a,
}

impl MediaFormat {
    /// Every format that is not an image.
    const AV: [MediaFormat; 8] = [
        MediaFormat::Mp4,
        MediaFormat::Mov,
        MediaFormat::Webm,
        MediaFormat::Mp3,
        MediaFormat::Ogg,
        MediaFormat::Wav,
        MediaFormat::Flac,
        MediaFormat::M4a,
    ];

    /// Recognises a file by its leading bytes (the client's content type and file name are never
    /// trusted); `None` for anything not accepted.
    pub fn sniff(bytes: &[u8]) -> Option<MediaFormat> {
        if let Some(kind) = ImageKind::sniff(bytes) {
            return Some(MediaFormat::Image(kind));
        }
        if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
            return Some(match &bytes[8..12] {
                b"qt  " => MediaFormat::Mov,
                b"M4A " | b"M4B " => MediaFormat::M4a,
                _ => MediaFormat::Mp4,
            });
        }
        if bytes.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
            Some(MediaFormat::Webm)
        } else if bytes.starts_with(b"ID3")
            || (bytes.len() >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0)
        {
            Some(MediaFormat::Mp3)
        } else if bytes.starts_with(b"OggS") {
            Some(MediaFormat::Ogg)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WAVE" {
            Some(MediaFormat::Wav)
        } else if bytes.starts_with(b"fLaC") {
            Some(MediaFormat::Flac)
        } else {
            None
        }
    }

    /// The attachment kind it makes.
    pub fn kind(self) -> MediaKind {
        match self {
            MediaFormat::Image(_) => MediaKind::Image,
            MediaFormat::Mp4 | MediaFormat::Mov | MediaFormat::Webm => MediaKind::Video,
            MediaFormat::Mp3
            | MediaFormat::Ogg
            | MediaFormat::Wav
            | MediaFormat::Flac
            | MediaFormat::M4a => MediaKind::Audio,
        }
    }

    /// The file extension used in keys.
    pub fn extension(self) -> &'static str {
        match self {
            MediaFormat::Image(k) => k.extension(),
            MediaFormat::Mp4 => "mp4",
            MediaFormat::Mov => "mov",
            MediaFormat::Webm => "webm",
            MediaFormat::Mp3 => "mp3",
            MediaFormat::Ogg => "ogg",
            MediaFormat::Wav => "wav",
            MediaFormat::Flac => "flac",
            MediaFormat::M4a => "m4a",
        }
    }

    /// The MIME type.
    pub fn content_type(self) -> &'static str {
        match self {
            MediaFormat::Image(k) => k.content_type(),
            MediaFormat::Mp4 => "video/mp4",
            MediaFormat::Mov => "video/quicktime",
            MediaFormat::Webm => "video/webm",
            MediaFormat::Mp3 => "audio/mpeg",
            MediaFormat::Ogg => "audio/ogg",
            MediaFormat::Wav => "audio/wav",
            MediaFormat::Flac => "audio/flac",
            MediaFormat::M4a => "audio/mp4",
        }
    }

    /// Every accepted format.
    pub fn all() -> impl Iterator<Item = MediaFormat> {
        ImageKind::ALL
            .into_iter()
            .map(MediaFormat::Image)
            .chain(Self::AV)
    }

    /// The format a file key's extension names.
    pub fn of_key(key: &str) -> Option<MediaFormat> {
        let ext = key.rsplit_once('.')?.1;
        Self::all().find(|f| f.extension() == ext)
    }
}

/// The width and height of an image, read from its header only.
pub fn image_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    let size = imagesize::blob_size(bytes).ok()?;
    Some((
        u32::try_from(size.width).ok()?,
        u32::try_from(size.height).ok()?,
    ))
}

/// A preview made from an image.
#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    /// The preview's bytes.
    pub bytes: Vec<u8>,
    /// Its format.
    pub kind: ImageKind,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// The BlurHash of the image.
    pub blurhash: Option<String>,
}

/// How a profile image is sized: Mastodon's geometry for avatars and headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageGeometry {
    /// Cropped to a centred square, then scaled down to at most `side` x `side` (avatars).
    Square {
        /// The largest side.
        side: u32,
    },
    /// Scaled down, aspect ratio kept and nothing cropped, to about `max_pixels` pixels (headers).
    MaxPixels {
        /// The most pixels.
        max_pixels: u64,
    },
}

/// What to do to an image for an [`ImageGeometry`]: crop, then scale to `width` x `height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resize {
    /// The part kept: left, top, width, height (the whole image when nothing is cropped).
    pub crop: (u32, u32, u32, u32),
    /// The width after scaling.
    pub width: u32,
    /// The height after scaling.
    pub height: u32,
}

impl ImageGeometry {
    /// What to do to a `width` x `height` image, or `None` when it already fits (a square
    /// avatar no larger than the side, a header within the pixels). Images are never scaled up.
    /// A header is scaled as Mastodon does: to `round(sqrt(max * w / h))` x
    /// `round(sqrt(max * h / w))`.
    pub fn plan(self, width: u32, height: u32) -> Option<Resize> {
        if width == 0 || height == 0 {
            return None;
        }
        match self {
            ImageGeometry::Square { side } => {
                if width == height && width <= side {
                    return None;
                }
                let s = width.min(height);
                let out = s.min(side).max(1);
                Some(Resize {
                    crop: ((width - s) / 2, (height - s) / 2, s, s),
                    width: out,
                    height: out,
                })
            }
            ImageGeometry::MaxPixels { max_pixels } => {
                if u64::from(width) * u64::from(height) <= max_pixels {
                    return None;
                }
                let (w, h, max) = (f64::from(width), f64::from(height), max_pixels as f64);
                let scaled = |v: f64, limit: u32| (v.round() as u32).clamp(1, limit);
                Some(Resize {
                    crop: (0, 0, width, height),
                    width: scaled((max * w / h).sqrt(), width),
                    height: scaled((max * h / w).sqrt(), height),
                })
            }
        }
    }
}

/// A profile image as it is to be stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileImageFile {
    /// The image's bytes.
    pub bytes: Vec<u8>,
    /// Their format.
    pub kind: ImageKind,
    /// A still PNG of an animated image (its first frame, sized by the geometry), served as
    /// `avatar_static` / `header_static`; `None` when the image itself is still.
    pub still_png: Option<Vec<u8>>,
}

/// Makes previews of uploaded images (in background jobs, so it may be slow) and sizes profile
/// images.
#[async_trait]
pub trait MediaProcessor: Send + Sync {
    /// A small preview (at most `max_pixels` pixels, aspect kept) and BlurHash of an image;
    /// `Err` with a reason when the image cannot be decoded.
    async fn preview(&self, image: &[u8], max_pixels: u32) -> Result<Preview, String>;

    /// An avatar or header sized by `geometry` (see [`ImageGeometry::plan`]); `Err` with a
    /// reason when the image cannot be decoded. The caller has already checked the format and
    /// that the header's dimensions are within the pixel limit. The default keeps the bytes as
    /// they are, for processors that cannot decode images.
    async fn profile_image(
        &self,
        image: Vec<u8>,
        kind: ImageKind,
        geometry: ImageGeometry,
    ) -> Result<ProfileImageFile, String> {
        let _ = geometry;
        Ok(ProfileImageFile {
            bytes: image,
            kind,
            still_png: None,
        })
    }
}

/// Makes no previews: clients are shown the original. The default of [`crate::App::new`].
pub struct NoProcessing;

#[async_trait]
impl MediaProcessor for NoProcessing {
    async fn preview(&self, _image: &[u8], _max_pixels: u32) -> Result<Preview, String> {
        Err("no media processor is configured".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_recognised_by_their_bytes() {
        let cases: [(&[u8], Option<MediaFormat>); 9] = [
            (b"\0\0\0\x18ftypisom\0\0\0\0", Some(MediaFormat::Mp4)),
            (b"\0\0\0\x14ftypqt  \0\0\0\0", Some(MediaFormat::Mov)),
            (b"\0\0\0\x18ftypM4A \0\0\0\0", Some(MediaFormat::M4a)),
            (b"\x1a\x45\xdf\xa3\x9f", Some(MediaFormat::Webm)),
            (b"ID3\x04\0\0", Some(MediaFormat::Mp3)),
            (b"OggS\0\x02", Some(MediaFormat::Ogg)),
            (b"RIFF\0\0\0\0WAVEfmt ", Some(MediaFormat::Wav)),
            (b"fLaC\0\0", Some(MediaFormat::Flac)),
            (b"%PDF-1.7", None),
        ];
        for (bytes, want) in cases {
            assert_eq!(MediaFormat::sniff(bytes), want, "{bytes:?}");
        }
        assert_eq!(MediaFormat::Webm.kind(), MediaKind::Video);
        assert_eq!(MediaFormat::Flac.kind(), MediaKind::Audio);
        assert_eq!(
            MediaFormat::of_key("media/1/original.webm"),
            Some(MediaFormat::Webm)
        );
        assert_eq!(MediaFormat::of_key("media/1/original.exe"), None);
    }

    #[test]
    fn avatars_are_cropped_to_a_square_and_never_scaled_up() {
        let avatar = ImageGeometry::Square { side: 400 };
        assert_eq!(avatar.plan(400, 400), None);
        assert_eq!(avatar.plan(1, 1), None);
        assert_eq!(
            avatar.plan(1000, 1000),
            Some(Resize {
                crop: (0, 0, 1000, 1000),
                width: 400,
                height: 400
            })
        );
        assert_eq!(
            avatar.plan(600, 300),
            Some(Resize {
                crop: (150, 0, 300, 300),
                width: 300,
                height: 300
            })
        );
        assert_eq!(
            avatar.plan(500, 2001),
            Some(Resize {
                crop: (0, 750, 500, 500),
                width: 400,
                height: 400
            })
        );
        assert_eq!(avatar.plan(0, 5), None);
    }

    #[test]
    fn headers_are_scaled_to_the_pixels_with_the_aspect_kept() {
        let header = ImageGeometry::MaxPixels {
            max_pixels: 750_000,
        };
        assert_eq!(header.plan(1500, 500), None);
        assert_eq!(header.plan(700, 1000), None);
        let r = header.plan(3000, 1000).unwrap();
        assert_eq!((r.crop, r.width, r.height), ((0, 0, 3000, 1000), 1500, 500));
        let r = header.plan(4000, 3000).unwrap();
        assert_eq!((r.width, r.height), (1000, 750));
        // A very thin strip keeps at least one pixel and never grows.
        let r = header.plan(1_000_000, 1).unwrap();
        assert_eq!((r.width, r.height), (866_025, 1));
    }

    #[tokio::test]
    async fn without_a_decoder_profile_images_are_kept() {
        let out = NoProcessing
            .profile_image(
                b"GIF89a".to_vec(),
                ImageKind::Gif,
                ImageGeometry::Square { side: 400 },
            )
            .await
            .unwrap();
        assert_eq!(out.bytes, b"GIF89a");
        assert_eq!((out.kind, out.still_png), (ImageKind::Gif, None));
    }
}
