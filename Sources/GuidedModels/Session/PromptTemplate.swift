/// Turns the session's instructions and a prompt into the text the model reads. Chat templating belongs
/// to the caller (it depends on the model); the common ones are ready-made.
public struct PromptTemplate: Sendable {
    /// Renders (instructions, prompt) into model input; special tokens are written as their text and
    /// recognised when the session encodes it.
    public let render: @Sendable (_ instructions: String?, _ prompt: String) -> String

    public init(_ render: @escaping @Sendable (_ instructions: String?, _ prompt: String) -> String) {
        self.render = render
    }

    /// A template string with `{{instructions}}` and `{{prompt}}` placeholders (instructions render as an
    /// empty string when there are none).
    public init(template: String) {
        render = { instructions, prompt in
            template.replacingOccurrences(of: "{{instructions}}", with: instructions ?? "")
                .replacingOccurrences(of: "{{prompt}}", with: prompt)
        }
    }

    /// ChatML, as Qwen models use it: a system turn (when there are instructions), the user turn, and an
    /// open assistant turn.
    public static let chatML = PromptTemplate { instructions, prompt in
        var text = ""
        if let instructions { text += "<|im_start|>system\n\(instructions)<|im_end|>\n" }
        text += "<|im_start|>user\n\(prompt)<|im_end|>\n<|im_start|>assistant\n"
        return text
    }

    /// Mistral instruct: `[INST] instructions\n\nprompt [/INST]` (the tokenizer adds no BOS; write `<s>`
    /// yourself if your engine does not).
    public static let mistralInstruct = PromptTemplate { instructions, prompt in
        let body = instructions.map { "\($0)\n\n\(prompt)" } ?? prompt
        return "[INST] \(body) [/INST]"
    }

    /// No template: instructions and prompt separated by a blank line.
    public static let plain = PromptTemplate { instructions, prompt in
        instructions.map { "\($0)\n\n\(prompt)" } ?? prompt
    }
}
