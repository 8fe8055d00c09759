import sys,re,gzip
sys.path.insert(0, __import__('os').path.dirname(__file__))
from proto import *
from collections import defaultdict

def cycles_evenodd(m, lane=False):
    segs=vertical_segments(m)
    if lane: segs=[s for s in segs if s[0]>0]
    ends=defaultdict(list)
    for i,(x,y0,y1) in enumerate(segs):
        ends[y0].append((x,i,0)); ends[y1].append((x,i,1))
    partner={}
    for h,l in ends.items():
        l.sort()
        for a,b in zip(l[0::2],l[1::2]):
            partner[(a[1],a[2])]=(b[1],b[2]); partner[(b[1],b[2])]=(a[1],a[2])
    used=[False]*len(segs); cycles=[]
    for i0 in range(len(segs)):
        if used[i0]: continue
        pts=[]; i,end=i0,0
        while True:
            used[i]=True
            x,a,b=segs[i]
            if end==0: pts+= [(x,a),(x,b)]; oe=1
            else: pts+=[(x,b),(x,a)]; oe=0
            j,je=partner[(i,oe)]
            if j==i0: break
            i,end=j,je
        cycles.append(pts)
    return cycles

def emit(cycles, canon=True, order='raster'):
    cs=[]
    for pts in cycles:
        if canon:
            # start at top-left point with next move horizontal-right
            k=len(pts)
            best=None
            for d in (1,-1):
                seq=pts if d==1 else pts[::-1]
                for i in range(k):
                    p=seq[i]; q=seq[(i+1)%k]
                    if q[1]==p[1] and q[0]>p[0]:
                        key=(p[1],p[0])
                        if best is None or key<best[0]: best=(key,seq[i:]+seq[:i])
            pts=best[1]
        cs.append(pts)
    if order=='raster': cs.sort(key=lambda c:(c[0][1],c[0][0]))
    s='';cur=None
    for pts in cs:
        x,y=pts[0]
        s+= 'M%d %d'%(x,y) if cur is None else 'm%d %d'%(x-cur[0],y-cur[1])
        px,py=x,y
        for (qx,qy) in pts[1:]:
            if qx!=px: s+='h%d'%(qx-px)
            elif qy!=py: s+='v%d'%(qy-py)
            px,py=qx,qy
        # drop the final segment if it goes back to start horizontally: already excluded since pts[-1]->pts[0] is the closing
        cur=(px,py)
    return s

for m in load(sys.argv[1]):
    n=len(m); sg=segno_svg(m); r=[n,'segno',len(sg),gz(sg)]
    for canon in (False,True):
        for lane in (False,):
            p=emit(cycles_evenodd(m,lane),canon)
            d=svgdoc(p,n); r+=[('c' if canon else 'n')+('L' if lane else ''),len(d),gz(d)]
            if n==33 and canon and not lane: open('/tmp/canon.svg','wb').write(d)
    print(*r)
