import CGD

/// One owner of a libgd image (`gdImagePtr`), destroyed in `deinit`. Not `Sendable`: one image,
/// one thread.
final class GDImage {
    private let image: gdImagePtr

    private init(_ image: gdImagePtr) { self.image = image }

    deinit { cgd_destroy(image) }

    var width: Int { Int(image.pointee.sx) }
    var height: Int { Int(image.pointee.sy) }

    /// Decodes an image whose header was read (and its size found acceptable).
    /// - Throws: `ArtworkError.undecodable` when libgd cannot read it, `.unavailable` when libgd
    ///   is not installed.
    convenience init(decoding bytes: [UInt8], header: ImageHeader) throws(ArtworkError) {
        guard cgd_load() == 0 else { throw .unavailable }
        let decoded = bytes.withUnsafeBytes { buffer -> gdImagePtr? in
            // libgd takes a `void *` but only reads through it.
            let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
            let size = Int32(buffer.count)
            switch header.format {
            case .png: return cgd_create_from_png(size, data)
            case .jpeg: return cgd_create_from_jpeg(size, data)
            case .gif: return cgd_create_from_gif(size, data)
            case .webp: return cgd_create_from_webp(size, data)
            }
        }
        // The header's size is what was checked: a decoder must not have found a larger one.
        guard let decoded else { throw .undecodable(format: header.format) }
        self.init(decoded)
        guard width * height <= ImageHeader.maximumPixels else { throw .tooLarge(width: width, height: height) }
    }

    /// A true-colour copy of `crop`'s square, resampled to its output side, on white (where
    /// the source is transparent: a JPEG has no alpha).
    func cropped(to crop: SquareCrop) throws(ArtworkError) -> GDImage {
        let side = Int32(crop.outputSide)
        guard let square = cgd_create_true_color(side, side) else { throw .encoding }
        let result = GDImage(square)
        cgd_filled_rectangle(square, 0, 0, side - 1, side - 1, 0xFF_FFFF)
        cgd_alpha_blending(square, 1)
        cgd_copy_resampled(
            square, image, 0, 0, Int32(crop.x), Int32(crop.y), side, side, Int32(crop.side), Int32(crop.side))
        return result
    }

    /// The image as a baseline JPEG.
    func jpeg(quality: Int) throws(ArtworkError) -> [UInt8] {
        var size: Int32 = 0
        guard let data = cgd_jpeg(image, &size, Int32(quality)), size > 0 else { throw .encoding }
        defer { cgd_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// The colour at a pixel, as 0xRRGGBB (alpha dropped).
    func rgb(x: Int, y: Int) -> Int {
        let pixel = cgd_true_color_pixel(image, Int32(x), Int32(y))
        return Int(pixel) & 0xFF_FFFF
    }
}
