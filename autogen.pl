#!/usr/bin/env perl
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Prepare an Open MPI source tree with this project's components in it.
#
# This repository is an overlay: it holds only what the project writes.  This
# script
#   1. obtains the pristine Open MPI tarball named in the base's profile,
#      config/base/<version> (OMPI_TARBALL=path first, then a cached copy, then
#      Debian's source package via apt-get, or by its pool path when this
#      Debian release does not carry that version) and verifies its sha256;
#   2. unpacks it into the staging directory (<builddir>/src/<topdir>);
#   3. lays this tree's ompi/, opal/ and config/ files over it (a directory that
#      holds a file named .overlay-owned replaces upstream's directory whole;
#      the profile's OMPI_OVERLAY_SKIP directories are left out);
#   4. applies the series' patches, config/patches/<series>/*.patch, in name
#      order (with the profile's OMPI_PATCH_FUZZ), stopping at the first one that
#      does not apply;
#   5. runs upstream's autogen.pl --force in the staging tree.
#
# Re-running it after an edit copies only the files that changed and re-runs
# upstream's autogen only when a build-system file (configure.m4, Makefile.am,
# *.m4, ...) changed or appeared.  A changed tarball or patch series, a removed
# overlay file or --force start again from the pristine tarball.
#
# Usage: ./autogen.pl [--force] [--quiet] [--help]
# Environment:
#   OMPI_BASE           Open MPI base to prepare (a config/base/ profile;
#                       default OMPI_BASE_DEFAULT in VERSION)
#   OMPI_TARBALL        path of the Open MPI tarball to use
#   OVERLAY_BUILD_DIR   where staging, downloads and logs go (default ./_build,
#                       and ./_build/<version> for a base whose profile says so)
#

use strict;
use warnings;
use Cwd qw(abs_path getcwd);
use File::Basename qw(dirname basename);
use File::Copy qw(copy);
use File::Find qw(find);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use Digest::SHA;
use Getopt::Long;

my $force = 0;
my $quiet = 0;
my $help  = 0;
GetOptions("force" => \$force, "quiet" => \$quiet, "help" => \$help)
    or die "usage: $0 [--force] [--quiet]\n";
if ($help) {
    open(my $fh, '<', $0) or die;
    while (<$fh>) { last if /^use strict/; print if $. > 5 && s/^# ?//; }
    exit 0;
}

my $top = dirname(abs_path($0));
my %project = read_kv("$top/VERSION");
fail("$top/VERSION does not define OMPI_BASE_DEFAULT") unless $project{OMPI_BASE_DEFAULT};
my $base = (defined $ENV{OMPI_BASE} && $ENV{OMPI_BASE} ne '') ? $ENV{OMPI_BASE}
         : $project{OMPI_BASE_DEFAULT};
fail("OMPI_BASE=$base: no profile config/base/$base (profiles: "
     . join(' ', map { basename($_) } glob("$top/config/base/*")) . ")")
    unless $base =~ /^[\w.-]+$/ && -f "$top/config/base/$base";
my %version = read_version("$top/config/base/$base");
my $builddir = $ENV{OVERLAY_BUILD_DIR} // ("$top/_build"
    . ($version{OMPI_BUILD_SUBDIR} ne '' ? "/$version{OMPI_BUILD_SUBDIR}" : ''));
my @skip = split ' ', ($version{OMPI_OVERLAY_SKIP} // '');
make_path($builddir) unless -d $builddir;
$builddir = abs_path($builddir);
my $srcroot  = "$builddir/src";
my $staging  = "$srcroot/$version{OMPI_TARBALL_TOPDIR}";
my $statef   = "$srcroot/.overlay-state";
my $logdir   = "$builddir/logs";
make_path($srcroot, $logdir);

$| = 1;
sub say  { print "autogen.pl: @_\n" unless $quiet; }
sub fail {
    print STDERR "autogen.pl: error: $_[0]\n";
    exit 1;
}

# KEY=value lines (a value with spaces in double quotes), as the shell reads.
sub read_kv {
    my ($f) = @_;
    open(my $fh, '<', $f) or fail("cannot read $f: $!");
    my %v;
    while (<$fh>) {
        next if /^\s*(#|$)/;
        if    (/^\s*([A-Z0-9_]+)="([^"]*)"\s*$/) { $v{$1} = $2; }
        elsif (/^\s*([A-Z0-9_]+)=(\S*)\s*$/)    { $v{$1} = $2; }
        else { fail("$f:$.: not a KEY=value line: $_"); }
    }
    return %v;
}

sub read_version {
    my ($f) = @_;
    my %v = read_kv($f);
    for my $k (qw(OMPI_TARBALL_NAME OMPI_TARBALL_SHA256 OMPI_TARBALL_TOPDIR
                  OMPI_DEBIAN_SOURCE OMPI_BASE_VERSION OMPI_SERIES
                  OMPI_BUILD_SUBDIR)) {
        fail("$f does not define $k") unless defined $v{$k};
    }
    return %v;
}

sub sha256_file {
    my ($f) = @_;
    my $d = Digest::SHA->new(256);
    $d->addfile($f, 'b');
    return $d->hexdigest;
}

sub which {
    my ($prog) = @_;
    for my $d (split /:/, ($ENV{PATH} // '')) {
        return "$d/$prog" if $d ne '' && -x "$d/$prog" && !-d "$d/$prog";
    }
    return undef;
}

# Tools this script and upstream's autogen.pl need, with the Debian package
# that provides each, so that a missing one is named with its fix.
sub check_tools {
    my @need = (['tar', 'tar'], ['xz', 'xz-utils'], ['patch', 'patch'],
                ['m4', 'm4'], ['autoconf', 'autoconf'],
                ['automake', 'automake'], ['libtoolize', 'libtool'],
                ['flex', 'flex'], ['make', 'make']);
    my @missing;
    for my $t (@need) {
        push @missing, $t unless which($t->[0]);
    }
    return unless @missing;
    my $progs = join(', ', map { $_->[0] } @missing);
    my $pkgs  = join(' ', map { $_->[1] } @missing);
    fail("missing build tools: $progs.\n"
         . "  Install them with: sudo apt-get install -y $pkgs\n"
         . "  (./quickstart.sh installs everything the build needs.)");
}

sub run_logged {
    my ($log, $dir, @cmd) = @_;
    my $pid = fork();
    fail("fork: $!") unless defined $pid;
    if ($pid == 0) {
        open(STDOUT, '>', $log) or die "cannot write $log: $!";
        open(STDERR, '>&', \*STDOUT) or die;
        chdir($dir) or die "cannot chdir $dir: $!";
        exec(@cmd) or die "cannot run $cmd[0]: $!";
    }
    waitpid($pid, 0);
    return $? >> 8;
}

sub tail_file {
    my ($f, $n) = @_;
    open(my $fh, '<', $f) or return '';
    my @l = <$fh>;
    return join('', @l[($#l - $n + 1 < 0 ? 0 : $#l - $n + 1) .. $#l]);
}

# ---------------------------------------------------------------- tarball

# APT's source lists, in both the one-line and the deb822 format.
sub apt_source_files {
    return grep { -f } ('/etc/apt/sources.list',
                        glob('/etc/apt/sources.list.d/*.list'),
                        glob('/etc/apt/sources.list.d/*.sources'));
}

sub have_deb_src {
    for my $f (apt_source_files()) {
        open(my $fh, '<', $f) or next;
        while (<$fh>) {
            return 1 if /^\s*deb-src\s/ || /^\s*Types:.*\bdeb-src\b/i;
        }
    }
    return 0;
}

# The archive URI and release suite of the first Debian 'deb' entry, from
# either the one-line or the deb822 format; fall back to deb.debian.org and
# the codename in /etc/os-release.
sub debian_archive {
    for my $f (apt_source_files()) {
        open(my $fh, '<', $f) or next;
        local $/ = undef;
        my $text = <$fh>;
        if ($f =~ /\.sources$/) {
            for my $stanza (split /\n\s*\n/, $text) {
                next unless $stanza =~ /^Types:.*\bdeb\b/mi;
                my ($uri)   = $stanza =~ /^URIs:\s*(\S+)/mi;
                my ($suite) = $stanza =~ /^Suites:\s*(\S+)/mi;
                my ($key)   = $stanza =~ /^Signed-By:\s*(\S+)/mi;
                next unless $uri && $suite && $suite !~ /-(security|updates)$/;
                return ($uri, $suite, $key ? "[signed-by=$key] " : '');
            }
        } else {
            for my $line (split /\n/, $text) {
                next unless $line =~ /^\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)/;
                my ($opts, $uri, $suite) = ($1 // '', $2, $3);
                next if $suite =~ /-(security|updates)$/;
                return ($uri, $suite, $opts);
            }
        }
    }
    my $codename = 'bookworm';
    if (open(my $fh, '<', '/etc/os-release')) {
        while (<$fh>) { $codename = $1 if /^VERSION_CODENAME=(\w+)/; }
    }
    return ('http://deb.debian.org/debian', $codename, '');
}

sub obtain_tarball {
    my $name = $version{OMPI_TARBALL_NAME};
    my $want = $version{OMPI_TARBALL_SHA256};

    if (defined $ENV{OMPI_TARBALL} && $ENV{OMPI_TARBALL} ne '') {
        my $t = $ENV{OMPI_TARBALL};
        fail("OMPI_TARBALL=$t: no such file") unless -f $t;
        my $got = sha256_file($t);
        fail("OMPI_TARBALL=$t has the wrong checksum.\n"
             . "  expected sha256 $want (Open MPI $version{OMPI_BASE_VERSION}, $name)\n"
             . "  got      sha256 $got\n"
             . "  Use the pristine $name, or unset OMPI_TARBALL to fetch it from Debian.")
            unless $got eq $want;
        return abs_path($t);
    }

    my $dl = "$builddir/downloads";
    make_path($dl);
    my $cached = "$dl/$name";
    if (-f $cached) {
        return $cached if sha256_file($cached) eq $want;
        say("cached $cached has the wrong checksum; fetching it again");
        unlink($cached);
    }

    # A base this Debian release does not carry (5.0.7 on bookworm): its
    # orig tarball by its pool path, from this machine's Debian mirror.
    my ($mirror, $suite) = debian_archive();
    if (($version{OMPI_DEBIAN_SUITE} // $suite) ne $suite && $version{OMPI_DEBIAN_POOL}) {
        return fetch_from_pool($mirror, $cached);
    }

    fail("no Open MPI tarball: OMPI_TARBALL is not set and apt-get is not available.\n"
         . "  Set OMPI_TARBALL to the path of $name (sha256 $want).")
        unless which('apt-get');

    if (!have_deb_src()) {
        if ($> == 0) {
            # Same archive, suite and signing key as the existing 'deb' entry
            # (apt rejects two entries for one archive with different keys).
            my ($uri, $suite, $opts) = debian_archive();
            my $f = '/etc/apt/sources.list.d/ompi-overlay-deb-src.list';
            say("no deb-src entry in APT's sources; adding $f ($uri $suite main)");
            open(my $fh, '>', $f) or fail("cannot write $f: $!");
            print $fh "# Added by ompi-research-components autogen.pl to fetch Open MPI's source.\n";
            print $fh "deb-src $opts$uri $suite main\n";
            close($fh);
            my $rc = run_logged("$logdir/apt-update.log", $dl, 'apt-get', 'update');
            fail("apt-get update failed (see $logdir/apt-update.log):\n"
                 . tail_file("$logdir/apt-update.log", 10)) if $rc;
        } else {
            fail("APT has no deb-src entry, so Debian's Open MPI source cannot be fetched.\n"
                 . "  Either set OMPI_TARBALL=/path/to/$name (sha256 $want),\n"
                 . "  or, as root, add a line like 'deb-src http://deb.debian.org/debian bookworm main'\n"
                 . "  to /etc/apt/sources.list.d/deb-src.list and run 'apt-get update'\n"
                 . "  (running ./autogen.pl or ./quickstart.sh as root does this for you).");
        }
    }

    say("fetching $name with apt-get source $version{OMPI_DEBIAN_SOURCE}");
    my $log = "$logdir/apt-source.log";
    my $rc = run_logged($log, $dl, 'apt-get', 'source', '--download-only',
                        $version{OMPI_DEBIAN_SOURCE});
    if ($rc && $> == 0 && tail_file($log, 20) =~ /Unable to find a source package|deb-src/) {
        # A deb-src entry exists but its index was never fetched.
        run_logged("$logdir/apt-update.log", $dl, 'apt-get', 'update');
        $rc = run_logged($log, $dl, 'apt-get', 'source', '--download-only',
                         $version{OMPI_DEBIAN_SOURCE});
    }
    fail("apt-get source $version{OMPI_DEBIAN_SOURCE} failed (log: $log):\n"
         . tail_file($log, 10)
         . "  Set OMPI_TARBALL=/path/to/$name to build from a local copy.") if $rc;
    unless (-f $cached) {
        my @got = map { basename($_) } glob("$dl/*.orig.tar.*");
        fail("apt-get source fetched @got, not $name: this Debian release does not\n"
             . "  carry Open MPI $version{OMPI_BASE_VERSION}. Set OMPI_TARBALL=/path/to/$name.");
    }
    my $got = sha256_file($cached);
    fail("$cached from Debian has the wrong checksum.\n"
         . "  expected sha256 $want\n  got      sha256 $got") unless $got eq $want;
    return $cached;
}

sub fetch_from_pool {
    my ($mirror, $cached) = @_;
    my $name = $version{OMPI_TARBALL_NAME};
    my $want = $version{OMPI_TARBALL_SHA256};
    $mirror = 'http://deb.debian.org/debian' unless $mirror =~ m{^https?://};
    $mirror =~ s{/+$}{};
    my $url = "$mirror/pool/$version{OMPI_DEBIAN_POOL}/$name";
    my @get = which('curl') ? ('curl', '-fsSL', '-o', "$cached.part", $url)
            : which('wget') ? ('wget', '-q', '-O', "$cached.part", $url)
            : fail("neither curl nor wget to fetch $url (sudo apt-get install -y curl),\n"
                   . "  or set OMPI_TARBALL=/path/to/$name (sha256 $want)");
    say("fetching $name from Debian $version{OMPI_DEBIAN_SUITE}'s pool: $url");
    my $log = "$logdir/fetch-$name.log";
    my $rc = run_logged($log, dirname($cached), @get);
    fail("fetching $url failed (log: $log):\n" . tail_file($log, 10)
         . "  Set OMPI_TARBALL=/path/to/$name (sha256 $want) to build from a local copy.") if $rc;
    my $size = -s "$cached.part";
    if ($version{OMPI_TARBALL_SIZE} && $size != $version{OMPI_TARBALL_SIZE}) {
        unlink("$cached.part");
        fail("$url: $size bytes, expected $version{OMPI_TARBALL_SIZE}");
    }
    my $got = sha256_file("$cached.part");
    if ($got ne $want) {
        unlink("$cached.part");
        fail("$url has the wrong checksum.\n  expected sha256 $want\n  got      sha256 $got");
    }
    rename("$cached.part", $cached) or fail("cannot write $cached: $!");
    return $cached;
}

# ---------------------------------------------------------------- overlay

my %BUILD_SYSTEM = map { $_ => 1 } qw(configure.m4 Makefile.am configure.params
    configure.ac owner .opal_ignore .ompi_ignore autogen.subdirs Makefile.include);

sub is_build_system_file {
    my ($rel) = @_;
    my $b = basename($rel);
    return 1 if $BUILD_SYSTEM{$b};
    return 1 if $b =~ /\.m4$/;
    return 0;
}

# Files of the overlay: everything under ompi/, opal/ and config/ except the
# patch series, ownership markers and editor/patch leftovers.
sub overlay_files {
    my (%files, @owned);
    for my $sub (qw(ompi opal config)) {
        next unless -d "$top/$sub";
        find({ no_chdir => 1, wanted => sub {
            my $p = $File::Find::name;
            my $rel = substr($p, length($top) + 1);
            if (-d $p) {
                # Not laid on the tree: patch series, base profiles, and
                # what this base's profile leaves out.
                $File::Find::prune = 1
                    if $rel eq 'config/patches' || $rel eq 'config/base'
                       || grep { $rel eq $_ } @skip;
                return;
            }
            my $b = basename($p);
            if ($b eq '.overlay-owned') { push @owned, dirname($rel); return; }
            return if $b =~ /(~|\.orig|\.rej|\.swp)$/ || $b =~ /^\.#/;
            $files{$rel} = sha256_file($p);
        } }, "$top/$sub");
    }
    return (\%files, [sort @owned]);
}

# The series' patches: config/patches/<series>/.
my $patchdir = "config/patches/$version{OMPI_SERIES}";
fail("no directory $patchdir for the series of Open MPI $base") unless -d "$top/$patchdir";

sub patch_series {
    my @p = sort glob("$top/$patchdir/*.patch");
    return map { [basename($_), $_, sha256_file($_)] } @p;
}

sub read_state {
    my %s = (files => {}, patches => [], owned => [], tarball => '', done => 0);
    open(my $fh, '<', $statef) or return undef;
    while (<$fh>) {
        chomp;
        my ($k, @v) = split / /;
        if    ($k eq 'tarball') { $s{tarball} = $v[0]; }
        elsif ($k eq 'patch')   { push @{$s{patches}}, "$v[0] $v[1]"; }
        elsif ($k eq 'owned')   { push @{$s{owned}}, $v[0]; }
        elsif ($k eq 'file')    { $s{files}{$v[0]} = $v[1]; }
        elsif ($k eq 'done')    { $s{done} = 1; }
    }
    return \%s;
}

sub write_state {
    my ($files, $owned, $patches, $done) = @_;
    open(my $fh, '>', "$statef.tmp") or fail("cannot write $statef: $!");
    print $fh "tarball $version{OMPI_TARBALL_SHA256}\n";
    print $fh "patch $_->[0] $_->[2]\n" for @$patches;
    print $fh "owned $_\n" for @$owned;
    print $fh "file $_ $files->{$_}\n" for sort keys %$files;
    print $fh "done\n" if $done;
    close($fh);
    rename("$statef.tmp", $statef) or fail("cannot write $statef: $!");
}

sub copy_in {
    my ($rel) = @_;
    my $dst = "$staging/$rel";
    make_path(dirname($dst));
    unlink($dst);
    copy("$top/$rel", $dst) or fail("cannot copy $rel into $staging: $!");
    chmod((stat("$top/$rel"))[2] & 07777, $dst);
}

# Files a patch touches, from its '+++ b/path' lines.
sub patch_targets {
    my ($path) = @_;
    open(my $fh, '<', $path) or fail("cannot read $path: $!");
    my @t;
    while (<$fh>) {
        push @t, $1 if m{^\+\+\+ [^/\s]+/(\S+)};
    }
    return @t;
}

sub run_upstream_autogen {
    # For the build tests only: exercise the overlay logic without the
    # two minutes of autotools.
    if ($ENV{OVERLAY_SKIP_UPSTREAM_AUTOGEN}) {
        say("running upstream autogen.pl --force (skipped: OVERLAY_SKIP_UPSTREAM_AUTOGEN)");
        return;
    }
    say("running upstream autogen.pl --force (about 2 minutes; log: $logdir/autogen.log)");
    my $rc = run_logged("$logdir/autogen.log", $staging, $^X, 'autogen.pl', '--force');
    fail("upstream autogen.pl failed (exit $rc); last lines of $logdir/autogen.log:\n"
         . tail_file("$logdir/autogen.log", 25)) if $rc;
}

sub full_prepare {
    my ($files, $owned, $patches) = @_;
    check_tools();
    my $tarball = obtain_tarball();
    say("verified $tarball (sha256 $version{OMPI_TARBALL_SHA256})");

    # Check patches against overlay files before any work: an overlaid file
    # that a patch also edits would lose the patch on the next resync.
    for my $p (@$patches) {
        for my $t (patch_targets($p->[1])) {
            fail("$patchdir/$p->[0] edits $t, which the overlay also provides; "
                 . "change the overlay file instead") if exists $files->{$t};
        }
    }

    unlink($statef);
    my $tmp = tempdir("unpack.XXXXXX", DIR => $srcroot, CLEANUP => 1);
    say("unpacking into $staging");
    my $rc = system('tar', '-xf', $tarball, '-C', $tmp);
    fail("cannot unpack $tarball") if $rc;
    fail("$tarball does not contain $version{OMPI_TARBALL_TOPDIR}/")
        unless -d "$tmp/$version{OMPI_TARBALL_TOPDIR}";
    remove_tree($staging) if -e $staging;
    rename("$tmp/$version{OMPI_TARBALL_TOPDIR}", $staging)
        or fail("cannot move the unpacked tree to $staging: $!");

    for my $d (@$owned) {
        say("overlay owns $d: removing upstream's copy");
        remove_tree("$staging/$d");
    }
    copy_in($_) for sort keys %$files;
    say("laid " . scalar(keys %$files) . " overlay files over the tree");

    my $fuzz = defined $version{OMPI_PATCH_FUZZ} ? "--fuzz=$version{OMPI_PATCH_FUZZ}" : '';
    for my $p (@$patches) {
        my ($name, $path) = @$p;
        my $out = `patch -p1 --forward --batch $fuzz --dry-run -d '$staging' < '$path' 2>&1`;
        fail("patch $patchdir/$name does not apply to Open MPI "
             . "$version{OMPI_BASE_VERSION}:\n$out"
             . "  Refresh the patch against the pristine tree, or remove it.") if $?;
        $out = `patch -p1 --forward --batch $fuzz -s -d '$staging' < '$path' 2>&1`;
        fail("patch $patchdir/$name failed:\n$out") if $?;
        say("applied $patchdir/$name");
    }

    write_state($files, $owned, $patches, 0);
    run_upstream_autogen();
    write_state($files, $owned, $patches, 1);
    say("ready: $staging");
}

# ---------------------------------------------------------------- main

my ($files, $owned) = overlay_files();
my @patches = patch_series();
my $state = read_state();

my $why;
if ($force)                                      { $why = "--force given"; }
elsif (!$state || !$state->{done} || !-d $staging) { $why = "no prepared tree yet"; }
elsif ($state->{tarball} ne $version{OMPI_TARBALL_SHA256}) { $why = "base tarball changed"; }
elsif (join(',', @{$state->{patches}}) ne join(',', map { "$_->[0] $_->[2]" } @patches)) {
    $why = "patch series changed";
}
elsif (join(',', @{$state->{owned}}) ne join(',', @$owned)) { $why = "owned directories changed"; }
else {
    my @gone = grep { !exists $files->{$_} } keys %{$state->{files}};
    $why = "overlay file removed: $gone[0]" if @gone;
}

if ($why) {
    say("preparing from the pristine tarball ($why)");
    full_prepare($files, $owned, \@patches);
    exit 0;
}

my @changed = grep { ($state->{files}{$_} // '') ne $files->{$_} } sort keys %$files;
if (!@changed) {
    say("staging tree is up to date");
    exit 0;
}
my $rerun = grep { is_build_system_file($_) } @changed;
copy_in($_) for @changed;
say("resynced " . scalar(@changed) . " file(s): "
    . join(' ', @changed > 8 ? (@changed[0..7], '...') : @changed));
if ($rerun) {
    check_tools();
    # Until upstream's autogen succeeds, record the build-system files as
    # unsynced so that the next run retries it.
    my %pending = %$files;
    $pending{$_} = 'pending' for grep { is_build_system_file($_) } @changed;
    write_state(\%pending, $owned, \@patches, 1);
    run_upstream_autogen();
}
write_state($files, $owned, \@patches, 1);
exit 0;
