/// The completion scripts `prefs completions <shell>` prints. Each only asks `prefs completions
/// --complete <index> -- <words>...` for the candidates (``CompletionCandidates``), so it offers the
/// verbs, options, domains, keys and choices of the `prefs` it runs, never a stale list of its own; each
/// inserts a candidate quoted as its shell needs (a key may hold a space or a `*`).
enum CompletionScript: String, CaseIterable {
    /// bash: `source <(prefs completions bash)`, or the file in bash-completion's directory.
    case bash
    /// zsh: the file as `_prefs` in a directory of `$fpath`, or `source <(prefs completions zsh)`
    /// after `compinit`.
    case zsh
    /// fish: the file as `~/.config/fish/completions/prefs.fish`, or `prefs completions fish | source`.
    case fish

    /// The script's text.
    var text: String {
        switch self {
        case .bash:
            return #"""
                # bash completion for prefs: source <(prefs completions bash)
                _prefs() {
                    local IFS=$'\n' line
                    local -a lines=()
                    while IFS= read -r line; do lines+=("$line"); done \
                        < <("${COMP_WORDS[0]}" completions --complete "$COMP_CWORD" -- "${COMP_WORDS[@]}" 2>/dev/null)
                    COMPREPLY=()
                    case "${lines[0]-}" in
                    :files)
                        compopt -o filenames 2>/dev/null
                        COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}")) ;;
                    :directories)
                        compopt -o filenames 2>/dev/null
                        COMPREPLY=($(compgen -d -- "${COMP_WORDS[COMP_CWORD]}")) ;;
                    *)
                        for line in "${lines[@]}"; do printf -v line %q "${line%%$'\t'*}"; COMPREPLY+=("$line"); done ;;
                    esac
                }
                complete -F _prefs prefs
                """#
        case .zsh:
            return #"""
                #compdef prefs
                # zsh completion for prefs: save as _prefs in a directory of $fpath, or (after compinit)
                # source <(prefs completions zsh)
                _prefs() {
                    local -a lines candidates
                    local line
                    lines=("${(@f)$("${words[1]}" completions --complete "$((CURRENT - 1))" -- "${(@)words}" 2>/dev/null)}")
                    case "${lines[1]}" in
                    :files) _files ;;
                    :directories) _files -/ ;;
                    *)
                        for line in "${lines[@]}"; do
                            [[ -n "$line" ]] && candidates+=("${line%%$'\t'*}")
                        done
                        compadd -a candidates ;;
                    esac
                }
                if [[ "${zsh_eval_context[-1]}" == loadautofunc ]]; then
                    _prefs "$@"
                else
                    compdef _prefs prefs
                fi
                """#
        case .fish:
            return #"""
                # fish completion for prefs: save as ~/.config/fish/completions/prefs.fish, or
                # prefs completions fish | source
                function __prefs_complete
                    set -l current (commandline -ct)
                    set -l words (commandline -opc) "$current"
                    set -l lines (command $words[1] completions --complete (math (count $words) - 1) -- $words 2>/dev/null)
                    switch "$lines[1]"
                        case :files
                            __fish_complete_path "$current"
                        case :directories
                            __fish_complete_directories "$current"
                        case '*'
                            for line in $lines
                                printf '%s\n' $line
                            end
                    end
                end
                complete -c prefs -f -a '(__prefs_complete)'
                """#
        }
    }
}
