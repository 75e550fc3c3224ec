/// Where a square is cut from an image and how large it comes out: the largest centred square,
/// scaled down to at most `maximumSide` (never up: a small cover stays sharp, and a lock screen
/// scales it as it likes).
public struct SquareCrop: Equatable, Sendable {
    /// The square's top-left corner in the source image.
    public let x: Int
    public let y: Int
    /// The square's side in the source image.
    public let side: Int
    /// The side of the image written.
    public let outputSide: Int

    public init(width: Int, height: Int, maximumSide: Int) {
        side = min(width, height)
        x = (width - side) / 2
        y = (height - side) / 2
        outputSide = min(side, maximumSide)
    }
}
