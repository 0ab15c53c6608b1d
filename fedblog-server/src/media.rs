//! The server's media processor: previews and BlurHashes of uploaded images, and avatars and
//! headers sized as Mastodon sizes them, made with the `image` and `blurhash` crates on a
//! blocking thread (decoding is CPU-bound).

use std::io::Cursor;

use async_trait::async_trait;
use fedblog_core::files::ImageKind;
use fedblog_core::media::{
    ImageGeometry, MediaProcessor, Preview, ProfileImageFile, image_dimensions,
};
use image::codecs::gif::GifDecoder;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::webp::WebPEncoder;
use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

/// Decodes at most this many bytes of pixels (the upload limits keep real images far below).
const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;

/// BlurHash components (Mastodon uses 4 x 4).
const BLURHASH_COMPONENTS: u32 = 4;

/// The quality of JPEG avatars and headers that had to be resized.
const JPEG_QUALITY: u8 = 90;

/// Makes previews with the `image` crate.
pub struct ImageProcessor;

#[async_trait]
impl MediaProcessor for ImageProcessor {
    async fn preview(&self, image: &[u8], max_pixels: u32) -> Result<Preview, String> {
        let bytes = image.to_vec();
        tokio::task::spawn_blocking(move || make_preview(&bytes, max_pixels))
            .await
            .map_err(|e| format!("preview task failed: {e}"))?
    }

    async fn profile_image(
        &self,
        image: Vec<u8>,
        kind: ImageKind,
        geometry: ImageGeometry,
    ) -> Result<ProfileImageFile, String> {
        tokio::task::spawn_blocking(move || size_profile_image(image, kind, geometry))
            .await
            .map_err(|e| format!("profile image task failed: {e}"))?
    }
}

/// The decoding limits: the second guard behind core's check of the declared pixels.
fn decode_limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

/// Sizes an avatar or header by `geometry`:
/// - a still image that already fits is kept byte for byte;
/// - a still image that does not is decoded (EXIF orientation applied), cropped and scaled
///   down, and encoded again in its own format (JPEG at quality 90, WebP lossless; a GIF
///   becomes a PNG, which needs no palette);
/// - an animated GIF is kept as it is (scaling every frame costs too much), with a still PNG of
///   its first frame sized by the geometry;
/// - an animated PNG or WebP becomes its first frame, sized, as Mastodon's libvips makes it.
fn size_profile_image(
    bytes: Vec<u8>,
    kind: ImageKind,
    geometry: ImageGeometry,
) -> Result<ProfileImageFile, String> {
    if kind == ImageKind::Gif {
        return size_gif(bytes, geometry);
    }
    let (width, height) =
        image_dimensions(&bytes).ok_or("the image's dimensions cannot be read")?;
    let animated = match kind {
        ImageKind::Png => is_animated_png(&bytes),
        ImageKind::Webp => is_animated_webp(&bytes),
        _ => false,
    };
    // Rotating by the EXIF orientation swaps width and height, which changes neither whether
    // an image is a square within the side nor its number of pixels.
    if !animated && geometry.plan(width, height).is_none() {
        return Ok(ProfileImageFile {
            bytes,
            kind,
            still_png: None,
        });
    }
    let image = sized(decode(&bytes)?, geometry);
    Ok(ProfileImageFile {
        bytes: encode(&image, kind)?,
        kind,
        still_png: None,
    })
}

/// A GIF: kept when still and fitting, a PNG when still and too large, kept with a still PNG
/// when animated.
fn size_gif(bytes: Vec<u8>, geometry: ImageGeometry) -> Result<ProfileImageFile, String> {
    let mut decoder = GifDecoder::new(Cursor::new(&bytes)).map_err(|e| e.to_string())?;
    decoder
        .set_limits(decode_limits())
        .map_err(|e| e.to_string())?;
    let mut frames = decoder.into_frames();
    let first = frames
        .next()
        .ok_or("the GIF has no frame")?
        .map_err(|e| e.to_string())?;
    let animated = matches!(frames.next(), Some(Ok(_)));
    drop(frames);
    let first = DynamicImage::ImageRgba8(first.into_buffer());
    let plan = geometry.plan(first.width(), first.height());
    if animated {
        let still = encode(&sized(first, geometry), ImageKind::Png)?;
        return Ok(ProfileImageFile {
            bytes,
            kind: ImageKind::Gif,
            still_png: Some(still),
        });
    }
    if plan.is_none() {
        return Ok(ProfileImageFile {
            bytes,
            kind: ImageKind::Gif,
            still_png: None,
        });
    }
    Ok(ProfileImageFile {
        bytes: encode(&sized(first, geometry), ImageKind::Png)?,
        kind: ImageKind::Png,
        still_png: None,
    })
}

/// Decodes a still image (the first frame of an animated one) within the limits, turned as
/// its EXIF orientation says.
fn decode(bytes: &[u8]) -> Result<DynamicImage, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    reader.limits(decode_limits());
    let mut decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let orientation = decoder.orientation().map_err(|e| e.to_string())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// The image cropped and scaled down by `geometry` (itself when it fits).
fn sized(image: DynamicImage, geometry: ImageGeometry) -> DynamicImage {
    match geometry.plan(image.width(), image.height()) {
        None => image,
        Some(r) => {
            let (x, y, w, h) = r.crop;
            let cropped = if (x, y, w, h) == (0, 0, image.width(), image.height()) {
                image
            } else {
                image.crop_imm(x, y, w, h)
            };
            if (r.width, r.height) == (w, h) {
                cropped
            } else {
                cropped.thumbnail_exact(r.width, r.height)
            }
        }
    }
}

/// Encodes `image` as `kind` (never as a GIF: callers make PNGs instead).
fn encode(image: &DynamicImage, kind: ImageKind) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let alpha = image.color().has_alpha();
    let result = match kind {
        ImageKind::Png => image.write_to(&mut Cursor::new(&mut out), ImageFormat::Png),
        ImageKind::Gif => return Err("GIFs are not encoded here".into()),
        ImageKind::Jpeg => {
            let encoder = JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
            match image {
                DynamicImage::ImageLuma8(gray) => gray.write_with_encoder(encoder),
                _ => image.to_rgb8().write_with_encoder(encoder),
            }
        }
        ImageKind::Webp => {
            let encoder = WebPEncoder::new_lossless(&mut out);
            if alpha {
                image.to_rgba8().write_with_encoder(encoder)
            } else {
                image.to_rgb8().write_with_encoder(encoder)
            }
        }
    };
    result.map_err(|e| e.to_string())?;
    Ok(out)
}

/// Whether a PNG is an APNG: an `acTL` chunk comes before the first `IDAT`.
fn is_animated_png(bytes: &[u8]) -> bool {
    let mut at = 8;
    while let Some(head) = bytes.get(at..at + 8) {
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        match &head[4..8] {
            b"acTL" => return true,
            b"IDAT" | b"IEND" => return false,
            _ => at = at.saturating_add(12).saturating_add(len),
        }
    }
    false
}

/// Whether a WebP is animated: an extended (`VP8X`) header with the animation flag.
fn is_animated_webp(bytes: &[u8]) -> bool {
    bytes.get(12..16) == Some(b"VP8X") && bytes.get(20).is_some_and(|flags| flags & 0x02 != 0)
}

/// The size that fits in `max_pixels` with the aspect ratio kept (never larger than the image).
fn fit(width: u32, height: u32, max_pixels: u32) -> (u32, u32) {
    let pixels = u64::from(width) * u64::from(height);
    if pixels <= u64::from(max_pixels) || pixels == 0 {
        return (width.max(1), height.max(1));
    }
    let scale = (f64::from(max_pixels) / pixels as f64).sqrt();
    (
        ((f64::from(width) * scale).floor() as u32).max(1),
        ((f64::from(height) * scale).floor() as u32).max(1),
    )
}

fn make_preview(bytes: &[u8], max_pixels: u32) -> Result<Preview, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    reader.limits(decode_limits());
    let decoded = reader.decode().map_err(|e| e.to_string())?;
    let (w, h) = fit(decoded.width(), decoded.height(), max_pixels);
    let small = decoded.thumbnail_exact(w, h);
    let opaque = !small.color().has_alpha();
    let (kind, format, out_image) = if opaque {
        (
            ImageKind::Jpeg,
            ImageFormat::Jpeg,
            DynamicImage::ImageRgb8(small.to_rgb8()),
        )
    } else {
        (ImageKind::Png, ImageFormat::Png, small.clone())
    };
    let mut encoded = Vec::new();
    out_image
        .write_to(&mut Cursor::new(&mut encoded), format)
        .map_err(|e| e.to_string())?;
    // BlurHash of a tiny copy: the hash only keeps low frequencies, and this keeps it fast.
    let tiny = small.thumbnail(64, 64).to_rgba8();
    let blurhash = blurhash::encode(
        BLURHASH_COMPONENTS,
        BLURHASH_COMPONENTS,
        tiny.width(),
        tiny.height(),
        tiny.as_raw(),
    )
    .ok();
    Ok(Preview {
        bytes: encoded,
        kind,
        width: w,
        height: h,
        blurhash,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_fit_and_keep_the_aspect_ratio() {
        assert_eq!(fit(100, 50, 230_400), (100, 50));
        let (w, h) = fit(4000, 2000, 230_400);
        assert!(u64::from(w) * u64::from(h) <= 230_400);
        assert!((f64::from(w) / f64::from(h) - 2.0).abs() < 0.01, "{w}x{h}");
    }

    #[test]
    fn a_png_gets_a_smaller_preview_and_a_blurhash() {
        let img = image::RgbImage::from_fn(800, 600, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        });
        let mut png = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .expect("encode");
        let p = make_preview(&png, 120_000).expect("preview");
        assert_eq!(p.kind, ImageKind::Jpeg);
        assert!(u64::from(p.width) * u64::from(p.height) <= 120_000);
        assert!((f64::from(p.width) / f64::from(p.height) - 4.0 / 3.0).abs() < 0.02);
        let decoded = image::load_from_memory(&p.bytes).expect("decodable preview");
        assert_eq!((decoded.width(), decoded.height()), (p.width, p.height));
        assert_eq!(p.blurhash.as_deref().map(str::len), Some(36));
        assert!(make_preview(b"not an image", 1000).is_err());
    }

    fn encoded(img: DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), format)
            .expect("encode");
        out
    }

    fn rgb(width: u32, height: u32) -> DynamicImage {
        DynamicImage::ImageRgb8(image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 7])
        }))
    }

    const AVATAR: ImageGeometry = ImageGeometry::Square { side: 400 };
    const HEADER: ImageGeometry = ImageGeometry::MaxPixels {
        max_pixels: 750_000,
    };

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn profile_images_are_cropped_scaled_or_kept() {
        // Too large: cropped to the centre square and scaled, in the same format.
        let out = size_profile_image(
            encoded(rgb(900, 500), ImageFormat::Jpeg),
            ImageKind::Jpeg,
            AVATAR,
        )
        .expect("sized");
        assert_eq!((out.kind, out.still_png.is_none()), (ImageKind::Jpeg, true));
        let img = image::load_from_memory_with_format(&out.bytes, ImageFormat::Jpeg).expect("jpeg");
        assert_eq!((img.width(), img.height()), (400, 400));

        // Non-square but small: cropped, not scaled up.
        let out = size_profile_image(
            encoded(rgb(300, 200), ImageFormat::Png),
            ImageKind::Png,
            AVATAR,
        )
        .expect("sized");
        let img = image::load_from_memory(&out.bytes).expect("png");
        assert_eq!((img.width(), img.height()), (200, 200));

        // Headers: scaled to Mastodon's pixels with the aspect kept; WebP stays WebP.
        let out = size_profile_image(
            encoded(rgb(3000, 1000), ImageFormat::WebP),
            ImageKind::Webp,
            HEADER,
        )
        .expect("sized");
        assert_eq!(out.kind, ImageKind::Webp);
        let img = image::load_from_memory_with_format(&out.bytes, ImageFormat::WebP).expect("webp");
        assert_eq!((img.width(), img.height()), (1500, 500));

        // Already within the size: the same bytes.
        for (bytes, kind, geometry) in [
            (
                encoded(rgb(400, 400), ImageFormat::Png),
                ImageKind::Png,
                AVATAR,
            ),
            (
                encoded(rgb(1500, 500), ImageFormat::Jpeg),
                ImageKind::Jpeg,
                HEADER,
            ),
        ] {
            let out = size_profile_image(bytes.clone(), kind, geometry).expect("kept");
            assert_eq!((out.bytes, out.kind, out.still_png), (bytes, kind, None));
        }
    }

    #[test]
    fn gifs_are_kept_when_animated_with_a_still_and_made_png_when_still() {
        let mut gif = Vec::new();
        {
            let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(&mut gif, 30);
            for c in [10u8, 200] {
                let frame = image::Frame::new(image::RgbaImage::from_pixel(
                    500,
                    300,
                    image::Rgba([c, c, c, 255]),
                ));
                encoder.encode_frame(frame).expect("frame");
            }
        }
        let out = size_profile_image(gif.clone(), ImageKind::Gif, AVATAR).expect("animated");
        assert_eq!((&out.bytes, out.kind), (&gif, ImageKind::Gif));
        let still = image::load_from_memory_with_format(
            out.still_png.as_deref().expect("a still"),
            ImageFormat::Png,
        )
        .expect("png still");
        assert_eq!((still.width(), still.height()), (300, 300));
        assert_eq!(still.to_rgba8().get_pixel(0, 0).0, [10, 10, 10, 255]);

        let one = encoded(
            DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
                800,
                800,
                image::Rgba([1, 2, 3, 255]),
            )),
            ImageFormat::Gif,
        );
        let out = size_profile_image(one, ImageKind::Gif, AVATAR).expect("still gif");
        assert_eq!((out.kind, out.still_png), (ImageKind::Png, None));
        let img = image::load_from_memory(&out.bytes).expect("png");
        assert_eq!((img.width(), img.height()), (400, 400));

        let small = encoded(
            DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
                20,
                20,
                image::Rgba([1, 2, 3, 255]),
            )),
            ImageFormat::Gif,
        );
        let out = size_profile_image(small.clone(), ImageKind::Gif, AVATAR).expect("small gif");
        assert_eq!(
            (out.bytes, out.kind, out.still_png),
            (small, ImageKind::Gif, None)
        );
    }

    #[test]
    fn animated_pngs_and_webps_are_recognised_and_flattened() {
        let png = encoded(rgb(40, 40), ImageFormat::Png);
        assert!(!is_animated_png(&png));
        // An acTL chunk (2 frames, looping) right after IHDR makes it an APNG.
        let mut chunk = b"acTL".to_vec();
        chunk.extend_from_slice(&[0, 0, 0, 2, 0, 0, 0, 0]);
        let mut apng = png[..33].to_vec();
        apng.extend_from_slice(&8u32.to_be_bytes());
        apng.extend_from_slice(&chunk);
        apng.extend_from_slice(&crc32(&chunk).to_be_bytes());
        apng.extend_from_slice(&png[33..]);
        assert!(is_animated_png(&apng));
        let out = size_profile_image(apng.clone(), ImageKind::Png, AVATAR).expect("flattened");
        assert_ne!(out.bytes, apng);
        assert!(!is_animated_png(&out.bytes));
        assert_eq!(
            image::load_from_memory(&out.bytes).expect("png").width(),
            40
        );
        // Only chunk types count, not bytes inside chunks; a length past the end is no panic.
        assert!(!is_animated_png(
            b"\x89PNG\r\n\x1a\n\0\0\0\x04tEXtacTL\0\0\0\0\0\0\0\0IDAT"
        ));
        assert!(!is_animated_png(
            b"\x89PNG\r\n\x1a\n\xff\xff\xff\xfftEXtacTL"
        ));

        let mut webp = b"RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0".to_vec();
        webp.push(0x02);
        assert!(is_animated_webp(&webp));
        webp[20] = 0x10;
        assert!(!is_animated_webp(&webp));
        assert!(!is_animated_webp(&encoded(rgb(4, 4), ImageFormat::WebP)));
    }

    #[test]
    fn bombs_are_refused_by_the_decoding_limits() {
        // A header declaring 50000x50000 (7.5 GB of pixels) with a valid CRC and a little data.
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend_from_slice(&50_000u32.to_be_bytes());
        ihdr.extend_from_slice(&50_000u32.to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
        let mut bomb = b"\x89PNG\r\n\x1a\n".to_vec();
        bomb.extend_from_slice(&13u32.to_be_bytes());
        bomb.extend_from_slice(&ihdr);
        bomb.extend_from_slice(&crc32(&ihdr).to_be_bytes());
        assert!(size_profile_image(bomb.clone(), ImageKind::Png, AVATAR).is_err());
        assert!(size_profile_image(bomb, ImageKind::Png, HEADER).is_err());
        assert!(size_profile_image(b"GIF89a".to_vec(), ImageKind::Gif, AVATAR).is_err());
    }
}
