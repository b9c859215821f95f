/// Something that draws itself into a rectangle of a buffer, from values alone.
///
/// Widgets do no I/O and keep no state between frames: the screen is rendered whole each frame
/// and the diff decides what reaches the terminal.
public protocol Widget {
    func render(into area: Rect, buffer: inout Buffer)
}
