import sys, gzip, io, segno
from segno import writers

def load(path):
    ms=[]; cur=[]
    for line in open(path):
        line=line.strip()
        if not line:
            if cur: ms.append(cur); cur=[]
            continue
        cur.append([int(c) for c in line])
    if cur: ms.append(cur)
    return ms

def segno_svg(m, border=4):
    n=len(m)
    matrix=tuple(bytearray(r) for r in m)
    # version from size
    v=(n-17)//4
    out=io.BytesIO()
    writers.write_svg(matrix,v,out,xmldecl=False,border=border,dark='#000',light=None)
    return out.getvalue()

def gz(b): return len(gzip.compress(b,9))

def num(v):
    s=str(v)
    return s

def vertical_segments(m):
    n=len(m)
    # transitions at x between column x-1 and x, row y
    def dark(x,y): return 0<=x<n and 0<=y<n and m[y][x]
    segs=[]
    for x in range(n+1):
        y=0
        while y<n:
            if dark(x-1,y)!=dark(x,y):
                y0=y
                while y<n and dark(x-1,y)!=dark(x,y): y+=1
                segs.append((x,y0,y))
            else: y+=1
    return segs

def cmd(c,v,prev):
    # relative command with number; omit letter if same as prev? (SVG allows repeating command implicitly)
    s=str(v)
    if c==prev:
        return (s if s.startswith('-') else ' '+s)
    return c+s

def outline_path(m, pairing='adjacent'):
    segs=vertical_segments(m)
    # endpoints by height
    from collections import defaultdict
    ends=defaultdict(list)
    for i,(x,y0,y1) in enumerate(segs):
        ends[y0].append((x,i,0)); ends[y1].append((x,i,1))
    partner={}
    for h,l in ends.items():
        l.sort()
        assert len(l)%2==0
        for a,b in zip(l[0::2],l[1::2]):
            partner[(a[1],a[2])]=(b[1],b[2],b[0]-a[0])
            partner[(b[1],b[2])]=(a[1],a[2],a[0]-b[0])
    used=[False]*len(segs)
    out=[]; curx,cury=0,0; first=True
    for i0 in range(len(segs)):
        if used[i0]: continue
        x,y0,y1=segs[i0]
        # start at top end going down
        if first: out.append('M%d %d'%(x,y0)); first=False
        else:
            out.append('m%d %d'%(x-curx,y0-cury))
        px,py=x,y0
        i,end=i0,0
        prev=''
        startx,starty=x,y0
        parts=[]
        while True:
            used[i]=True
            x,a,b=segs[i]
            if end==0: dy=b-a; py=b; oe=1
            else: dy=a-b; py=a; oe=0
            parts.append(('v',dy))
            j,je,dx=partner[(i,oe)]
            if used[j] and j==i0:
                # last connector back to start: implicit close
                break
            parts.append(('h',dx)); px+=dx
            i,end=j,je
        s='';prevc=''
        for c,v in parts:
            s+=cmd(c,v,prevc); prevc=c
        out.append(s)
        curx,cury=px,py
    return ''.join(out)

if __name__=='__main__':
    for m in load(sys.argv[1]):
        n=len(m)
        sg=segno_svg(m)
        print('segno',len(sg),gz(sg))
        p=outline_path(m)
        doc=('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-4 -4 %d %d"><path fill-rule="evenodd" d="%s"/></svg>'%(n+8,n+8,n+8,n+8,p)).encode()
        print('outline',len(doc),gz(doc), len(p))
        open('/tmp/outline.svg','wb').write(doc)

def runs_of(row):
    r=[];x=0;n=len(row)
    while x<n:
        if row[x]:
            a=x
            while x<n and row[x]: x+=1
            r.append((a,x))
        else: x+=1
    return r

def zigzag_path(m):
    # evenodd, left lane x=0 free; transitions at boundaries 1..n
    n=len(m); out=[]
    cx,cy=0,0
    out.append('M0 0')
    for y in range(n):
        ts=[]
        for (a,b) in runs_of(m[y]):
            if a>0: ts.append(a)
            ts.append(b)
        if not ts:
            continue
        # start height: choose so we end at bottom (y+1): m odd -> start top, even -> start bottom
        h0 = y if len(ts)%2==1 else y+1
        s=''
        if cy!=h0: s+='v%d'%(h0-cy)
        x=0;h=h0
        for t in ts:
            s+='h%d'%(t-x); x=t
            dy = 1 if h==y else -1
            s+='v%d'%dy; h+=dy
        s+='H0'
        cx,cy=0,h
        out.append(s)
    return ''.join(out)

def svgdoc(p,n,rule=' fill-rule="evenodd"'):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="-4 -4 %d %d"><path%s d="%s"/></svg>'%(n+8,n+8,n+8,n+8,rule,p)).encode()

if __name__=='__main__':
    for m in load(sys.argv[1]):
        n=len(m)
        nr=sum(len(runs_of(r)) for r in m)
        print('runs',nr,'vsegs',len(vertical_segments(m)))
        p=zigzag_path(m); d=svgdoc(p,n)
        print('zigzag',len(d),gz(d)); open('/tmp/zig.svg','wb').write(d)
