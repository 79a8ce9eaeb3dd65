# bash completion for headway, the client (written here: headway keeps its own small argument
# reader; Tests/EndToEndTests/ClientManualTests.swift checks this against `headway --help`).
_headway() {
    local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]}
    local commands="begin set label indeterminate alive pause resume done fail cancel finish end status watch press run pipe help"
    local global="--job --socket --broker --source --strict --timeout-ms --help --version"
    local command="" word
    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        [ "$word" = -- ] && { COMPREPLY=($(compgen -c -- "$current")); return; }
        [ -z "$command" ] && case " $commands " in *" $word "*) command=$word ;; esac
    done
    case "$previous" in
        --socket) COMPREPLY=($(compgen -f -- "$current")); return ;;
        --job | --broker | --source | --timeout-ms | --label | --total | --countdown | --until | --name | --pid | --heartbeat | --pattern | --size | --record) return ;;
        --unit) COMPREPLY=($(compgen -W "bytes bytes-iec seconds" -- "$current")); return ;;
        --format) COMPREPLY=($(compgen -W "restic borg borgmatic rsync rclone ffmpeg apt curl wget dd pv cargo lines" -- "$current")); return ;;
    esac
    local options
    case "$command" in
        "") COMPREPLY=($(compgen -W "$commands $global" -- "$current")); return ;;
        begin) options="--label --total --countdown --until --unit --name --pid --heartbeat --no-percent" ;;
        set) options="--label" ;;
        run) options="--format --pattern --size --total --label --name --record --" ;;
        pipe) options="--size --label" ;;
        watch) options="--json" ;;
        press) options="--long" ;;
        finish) COMPREPLY=($(compgen -W "success failure cancelled unknown" -- "$current")); return ;;
        *) options="" ;;
    esac
    COMPREPLY=($(compgen -W "$options --job --socket --strict" -- "$current"))
}
complete -F _headway headway
