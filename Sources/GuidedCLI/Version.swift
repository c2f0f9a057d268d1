/// The version both command-line tools print for `--version`: one constant, so they never disagree.
public enum GuidedVersion {
    public static let string = "0.9.0"
}
