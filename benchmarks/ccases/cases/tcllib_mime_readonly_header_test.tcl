# wynot Tcl case: tcllib 1.20 -> 1.21, mime 1.6.2 -> 1.7.0, commit 134db364
# "Make it a no-op instead of an error to set a "read-only" header to an
# identical value, and allow deletion of a "read-only" header.": setting the
# Content-Type of a text/plain part to text/plain was the error "key
# Content-Type may not be set", then it is allowed (another value is still
# refused).
# Exit 0: old behaviour; 1: new; 125: anything else, a package that does not
# load included (tclsh exits 1 on an uncaught error, which would read as the
# new behaviour, so every error is caught here).
# The packages come from the case's modules/ folder only (auto_path holds it
# and Tcl's own library), never from an installed tcllib.

# the error's stack (errorInfo, which starts with its message) or the message
# alone go to stderr, as tclsh would print them
proc unresolved {why {err {}} {info {}}} {
    if {$info ne {}} {
        puts stderr $info
    } elseif {$err ne {}} {
        puts stderr $err
    }
    puts "UNRESOLVED: $why"
    exit 125
}

set here [file normalize [file dirname [info script]]]
set modules [file join $here modules]
set auto_path [list $modules $tcl_library]

if {[catch {
    package require mime
    package require smtp
} err]} {
    unresolved "mime or smtp does not load" $err $::errorInfo
}

# the packages must be the case's own copies
foreach pkg {mime smtp base64 md5} {
    set script [package ifneeded $pkg [package present $pkg]]
    if {[string first $modules $script] < 0} {
        unresolved "package $pkg [package present $pkg] is not the case's: $script"
    }
}
if {[info commands ::smtp::sendmessage] eq {}} {
    unresolved "smtp loaded without ::smtp::sendmessage"
}

if {[catch {
    # an ordinary header, in both releases
    set tok [mime::initialize -canonical text/plain -string "hello wynot\n"]
    mime::setheader $tok X-Wynot yes
    set got [mime::getheader $tok X-Wynot]
    set msg [mime::buildmessage $tok]
    mime::finalize $tok
    if {$got ne {yes}} {
        unresolved "the header X-Wynot reads back as [list $got]"
    }
    if {![regexp {(?n)^X-Wynot: yes\r?$} $msg] || ![string match *text/plain* $msg]
        || ![string match "*hello wynot*" $msg]} {
        unresolved "the message is [list $msg]"
    }

    # another Content-Type is refused in both releases
    set tok [mime::initialize -canonical text/plain -string "hello wynot\n"]
    set other [catch {mime::setheader $tok Content-Type text/html} res]
    mime::finalize $tok
    if {!$other || $res ne {key Content-Type may not be set}} {
        unresolved "setting Content-Type to text/html gave [list $other $res]"
    }

    # the same Content-Type: refused before, a no-op write after
    set tok [mime::initialize -canonical text/plain -string "hello wynot\n"]
    set same [catch {mime::setheader $tok Content-Type text/plain} res opts]
    set after [mime::getproperty $tok content]
    mime::finalize $tok
} err]} {
    unresolved "mime threw" $err $::errorInfo
}

if {$after ne {text/plain}} {
    unresolved "the part's content became [list $after]"
}
if {$same && $res eq {key Content-Type may not be set}} {
    puts "PASS: setting Content-Type to its own value is refused"
    exit 0
}
if {!$same && $res eq {}} {
    puts "FAIL: setting Content-Type to its own value is allowed"
    exit 1
}
if {$same} {
    unresolved "setting Content-Type to text/plain threw" $res [dict get $opts -errorinfo]
}
unresolved "setting Content-Type to text/plain returned [list $res]"
